package vtlab.tier;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Supplier;

/** A started SUT's HTTP side, wherever it runs: ready (runtime-info answers, or the port accepts) and drained. */
final class SutHttp {
    private SutHttp() {}

    /**
     * Waits until runtime-info answers 200 (a stack without one: until the port accepts a connection; its body is then
     * empty); fails with the log's last lines if the JVM dies or time runs out.
     *
     * @param exited why the SUT is gone, once it is
     */
    static String awaitReady(SutHandle sut, URI base, String runtimeInfoPath, InetSocketAddress port, Duration timeout,
                             Supplier<String> exited) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!sut.alive()) throw new IOException(exited.get());
            if (runtimeInfoPath == null) {
                try (Socket s = new Socket()) {
                    s.connect(port, 1000);
                    return "";
                } catch (IOException e) {
                    Thread.sleep(200);
                    continue;
                }
            }
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(base.resolve(runtimeInfoPath))
                        .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) return r.body();
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new IOException((runtimeInfoPath == null ? "port " + port.getPort() + " did not open" : "SUT not ready") + " within "
                + timeout.toSeconds() + " s: " + sut.tail(5));
    }

    /**
     * Waits until requests left queued by the previous load (the warm-up's connections are gone, but a platform
     * pool still works through their queued requests) are served: runtime-info goes through the same executor, so
     * it answers fast only once the queue is empty. Returns how long it waited.
     */
    static Duration drain(URI base, String drainPath, Duration max) throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        long t0 = System.nanoTime(), deadline = t0 + max.toNanos();
        int fast = 0;
        while (System.nanoTime() < deadline && fast < 2) {
            long r0 = System.nanoTime();
            try {
                http.send(HttpRequest.newBuilder(base.resolve(drainPath)).timeout(max).build(), HttpResponse.BodyHandlers.discarding());
            } catch (IOException e) {
                // an answer that did not come is not a drained queue
            }
            fast = (System.nanoTime() - r0) < 50_000_000L ? fast + 1 : 0;
            if (fast < 2) Thread.sleep(100);
        }
        return Duration.ofNanos(System.nanoTime() - t0);
    }
}
