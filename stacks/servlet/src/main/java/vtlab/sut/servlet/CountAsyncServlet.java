package vtlab.sut.servlet;

import java.io.IOException;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The same count with Servlet non-blocking I/O (seed 003): the request goes async, a ReadListener reads only what is
 * ready and returns the thread to the executor otherwise; a WriteListener writes the answer once all is read.
 */
public class CountAsyncServlet extends HttpServlet {

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/plain");
        resp.setCharacterEncoding("UTF-8");
        AsyncContext ac = req.startAsync();
        ac.setTimeout(60_000);
        new CounterListener(ac, req.getInputStream(), resp.getOutputStream());
    }

    /**
     * Tomcat never runs this request's read and write callbacks at the same time, but one after another they may run
     * on different threads: hence volatile, no locks.
     */
    private static final class CounterListener implements ReadListener, WriteListener {
        private final AsyncContext ac;
        private final ServletInputStream in;
        private final ServletOutputStream out;
        private final byte[] buffer = new byte[CountServlet.BUFFER];
        private volatile boolean readFinished, written;
        private volatile long total;

        CounterListener(AsyncContext ac, ServletInputStream in, ServletOutputStream out) {
            this.ac = ac;
            this.in = in;
            this.out = out;
            in.setReadListener(this);
            out.setWriteListener(this);
        }

        @Override
        public void onDataAvailable() throws IOException {
            long sum = total;
            int read = 0;
            while (in.isReady() && read > -1) {
                read = in.read(buffer);
                if (read > 0) sum += read;
            }
            total = sum;
        }

        @Override
        public void onAllDataRead() throws IOException {
            readFinished = true;
            if (out.isReady()) onWritePossible();
        }

        @Override
        public void onWritePossible() throws IOException {
            if (readFinished && !written) {
                written = true;
                out.write(CountServlet.message(total));
                ac.complete();
            }
        }

        @Override
        public void onError(Throwable t) {
            ac.complete();
        }
    }
}
