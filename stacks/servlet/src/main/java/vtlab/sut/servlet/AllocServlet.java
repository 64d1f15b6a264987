package vtlab.sut.servlet;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * A positive control for the profile probe's CPU and GC causes: every request allocates kb kilobytes as 1 KB arrays,
 * writes each one (CPU in the service's own code) and puts it in a shared ring of the last {@link #KEEP} arrays, so
 * its garbage is short-lived but outlives a small young generation: on a big heap the allocation is the work (CPU),
 * on a heap barely above the ring every collection copies the ring and old collections follow (GC).
 */
public class AllocServlet extends HttpServlet {
    /** 8 MB of 1 KB arrays: what each collection finds alive. */
    static final int KEEP = 8 * 1024;
    static final AtomicReferenceArray<byte[]> RING = new AtomicReferenceArray<>(KEEP);
    static final AtomicLong NEXT = new AtomicLong();

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String p = req.getParameter("kb");
        int kb;
        try {
            kb = p == null ? 256 : Integer.parseInt(p);
        } catch (NumberFormatException e) {
            resp.sendError(400, "kb must be a whole number of kilobytes");
            return;
        }
        if (kb < 1 || kb > 65_536) {
            resp.sendError(400, "kb must be between 1 and 65536");
            return;
        }
        long sum = 0;
        for (int i = 0; i < kb; i++) {
            byte[] b = new byte[1024];
            for (int j = 0; j < b.length; j += 8) b[j] = (byte) (i + j);
            sum += b[i & 1023];
            RING.set((int) (NEXT.getAndIncrement() % KEEP), b);
        }
        resp.setContentType("text/plain");
        resp.getWriter().print("allocated " + kb + " KB (" + (sum & 0xff) + ")\n");
    }
}
