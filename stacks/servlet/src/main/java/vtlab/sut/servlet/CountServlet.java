package vtlab.sut.servlet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Seed 003's "counting request body bytes" with blocking I/O: a ServletInputStream.read loop on the request's thread,
 * which waits (a platform thread blocks, a virtual thread parks) whenever the next part of the body has not arrived.
 */
public class CountServlet extends HttpServlet {
    static final int BUFFER = 8192;

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/plain");
        resp.setCharacterEncoding("UTF-8");
        ServletInputStream in = req.getInputStream();
        byte[] buffer = new byte[BUFFER];
        long total = 0;
        int read;
        while ((read = in.read(buffer)) > -1) total += read;
        resp.getOutputStream().write(message(total));
    }

    static byte[] message(long total) {
        return ("Total bytes read = [" + total + "]").getBytes(StandardCharsets.UTF_8);
    }
}
