package vtlab.sut.servlet;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * What arrived, for checking a generator's request (./vtlab ab --header/--body): the method, the body's length and
 * SHA-256, its Content-Type, and the value of the header named by ?header=NAME. With ?sha256=HEX it answers 400 when
 * the body differs, and with ?header=NAME when that header is missing, so a request sent wrong under load counts as
 * a status error rather than passing unseen. Any method.
 */
public class EchoServlet extends HttpServlet {
    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        long bytes = 0;
        byte[] buffer = new byte[8192];
        try (InputStream in = req.getInputStream()) {
            for (int n; (n = in.read(buffer)) > -1; bytes += n) sha.update(buffer, 0, n);
        }
        String digest = HexFormat.of().formatHex(sha.digest());
        String name = req.getParameter("header"), value = name == null ? null : req.getHeader(name);
        String want = req.getParameter("sha256");
        boolean wrong = want != null && !want.equalsIgnoreCase(digest) || name != null && value == null;
        resp.setStatus(wrong ? HttpServletResponse.SC_BAD_REQUEST : HttpServletResponse.SC_OK);
        resp.setContentType("text/plain");
        String text = "method=" + req.getMethod() + "\nbytes=" + bytes + "\nsha256=" + digest + "\ncontent-type=" + req.getContentType()
                + (name == null ? "" : "\nheader=" + value) + "\n";
        resp.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
    }
}
