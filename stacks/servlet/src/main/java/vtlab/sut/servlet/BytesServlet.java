package vtlab.sut.servlet;

import java.io.IOException;
import java.util.Arrays;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * GET /bytes?n=N: a response of exactly N bytes (seed 003's response-size sweep), written from one shared buffer so
 * the work per request is the write itself, not building the body.
 */
public class BytesServlet extends HttpServlet {
    static final int MAX = 16 * 1024 * 1024;
    private static final byte[] BODY = filled(MAX);

    private static byte[] filled(int n) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) 'x');
        return b;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        int n;
        try {
            n = Integer.parseInt(String.valueOf(req.getParameter("n")));
        } catch (NumberFormatException e) {
            resp.sendError(400, "n must be a whole number of bytes");
            return;
        }
        if (n < 0 || n > MAX) {
            resp.sendError(400, "n must be between 0 and " + MAX);
            return;
        }
        resp.setContentType("application/octet-stream");
        resp.setContentLength(n);
        ServletOutputStream out = resp.getOutputStream();
        out.write(BODY, 0, n);
    }
}
