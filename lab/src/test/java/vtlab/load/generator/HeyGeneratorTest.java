package vtlab.load.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import vtlab.stack.Request;
import vtlab.load.Generator;
import vtlab.load.LoadSpec;
import vtlab.load.LoadResult;

class HeyGeneratorTest {
    @org.junit.jupiter.api.io.TempDir
    Path dir;

    /** A user's request (./vtlab ab --header, --body @FILE): a credential, quotes, a body that is no text. */
    static Request userRequest(Path body) throws Exception {
        java.nio.file.Files.write(body, WrkGeneratorTest.AWKWARD);
        return new Request("POST", List.of(new Request.Header("X-Note", "it's \"quoted\""), new Request.Header("Content-Type", "application/json"),
                new Request.Header("Cookie", "sid=s3cr3t")), Request.Body.ofFile(body));
    }

    @Test
    void theCommandSendsTheRequestsHeadersContentTypeAndBodyFile() throws Exception {
        Path body = dir.resolve("my body.bin");
        LoadSpec s = new LoadSpec(java.net.URI.create("http://127.0.0.1:1/echo"), userRequest(body), 10, 1, java.time.Duration.ofSeconds(5),
                java.time.Duration.ofSeconds(30), "1", dir, "row");
        List<String> cmd = HeyGenerator.command(Path.of("/bin/hey"), s);
        assertEquals(List.of("taskset", "-c", "1", "/bin/hey", "-c", "10", "-z", "5s", "-t", "30", "-m", "POST",
                "-H", "X-Note: it's \"quoted\"", "-H", "Cookie: sid=s3cr3t", "-T", "application/json", "-D", body.toString(),
                "http://127.0.0.1:1/echo"), cmd, "the user's file itself, sent by hey byte for byte");
        assertTrue(vtlab.core.Secrets.toolCommand(cmd, "-H").contains("Cookie: ***"), "raw/*.hey.cmd masks the credential");
        // a lab workload: its 'x' bytes written once into raw/, as application/octet-stream (what it always sent)
        List<String> lab = HeyGenerator.command(Path.of("/bin/hey"), new LoadSpec(java.net.URI.create("http://127.0.0.1:1/count"),
                Request.filler("POST", 1000), 8, 1, java.time.Duration.ofSeconds(5), java.time.Duration.ofSeconds(30), "1", dir, "row"));
        assertEquals(List.of("-m", "POST", "-T", "application/octet-stream", "-D"), lab.subList(10, 15));
        assertEquals("x".repeat(1000), java.nio.file.Files.readString(Path.of(lab.get(15))));
        assertEquals(List.of("-m", "GET", "http://127.0.0.1:1/"), HeyGenerator.command(Path.of("/bin/hey"), new LoadSpec(
                java.net.URI.create("http://127.0.0.1:1/"), Request.of("GET"), 8, 1, java.time.Duration.ofSeconds(5),
                java.time.Duration.ofSeconds(30), "1", dir, "row")).subList(10, 13));
    }

    @Test
    void parsesAShortRealRun() throws Exception {
        // captured from `taskset -c 1 hey -c 10 -z 2s -t 30 -m GET .../sleep?ms=5` (HeyGenerator's command) against the
        // servlet SUT (virtual threads, pinned to CPU 0) on the 2-core dev machine
        LoadResult r = HeyGenerator.parse(WrkGeneratorTest.resource("hey-sleep-virtual-c10.txt"), Path.of("x"));
        assertEquals(2716, r.requests());
        assertEquals(2.0037, r.durationS(), 1e-9);
        assertEquals(1355.4791, r.rps(), 0.5); // hey's own Requests/sec (its Total is rounded to 0.1 ms)
        assertEquals(5.8, r.p50Ms(), 1e-9);
        assertEquals(8.9, r.p90Ms(), 1e-9);
        assertEquals(10.5, r.p95Ms(), 1e-9);
        assertEquals(53.2, r.p99Ms(), 1e-9);
        assertEquals(108.3, r.maxMs(), 1e-9);
        assertEquals(7.4, r.meanMs(), 1e-9);
        assertEquals(29876, r.bytes());
        assertEquals(0, r.errors());
        assertNull(r.histogram(), "hey gives no per-request latencies alongside its error counts");
    }

    @Test
    void countsRealConnectionErrors() throws Exception {
        // captured from `hey -c 1 -n 5 -t 30 -m GET` against a closed port: hey's CSV mode prints only its header here
        LoadResult r = HeyGenerator.parse(WrkGeneratorTest.resource("hey-connection-refused.txt"), Path.of("x"));
        assertEquals(0, r.requests());
        assertEquals(5, r.errConnect());
        assertEquals(1.0, r.errorRate(), 1e-12);
    }

    @Test
    void parsesARealHeySummary() throws Exception {
        // captured from hey -c 100 -z 3s against the servlet SUT's sleep endpoint on the dev machine
        LoadResult r = HeyGenerator.parse(WrkGeneratorTest.resource("hey-sleep-virtual-c100.txt"), Path.of("x"));
        assertEquals(1492, r.requests());
        assertEquals(3.0460, r.durationS(), 1e-9);
        assertEquals(1492 / 3.0460, r.rps(), 1e-9);
        assertEquals(69.9, r.p50Ms(), 1e-9);
        assertEquals(1818.2, r.p99Ms(), 1e-9);
        assertTrue(Double.isNaN(r.p999Ms()), "hey has no p99.9");
        assertEquals(1839.5, r.maxMs(), 1e-9);
        assertEquals(200.0, r.meanMs(), 1e-9);
        assertEquals(0, r.errors());
        assertEquals(17904, r.bytes());
    }

    @Test
    void classifiesErrors() throws Exception {
        String text = """
                Summary:
                  Total:\t2.0135 secs
                  Slowest:\t0.0000 secs
                  Average:\t NaN secs

                Status code distribution:
                  [200]\t90 responses
                  [503]\t10 responses

                Error distribution:
                  [100]\tGet "http://127.0.0.1:1/s": context deadline exceeded (Client.Timeout exceeded while awaiting headers)
                  [7]\tGet "http://127.0.0.1:1/s": dial tcp 127.0.0.1:1: connect: connection refused
                  [2]\tGet "http://127.0.0.1:1/s": EOF
                """;
        LoadResult r = HeyGenerator.parse(text, Path.of("x"));
        assertEquals(100, r.requests());
        assertEquals(10, r.errStatus());
        assertEquals(100, r.errTimeout());
        assertEquals(7, r.errConnect());
        assertEquals(2, r.errRead());
        assertTrue(Double.isNaN(r.meanMs()));
    }

    @Test
    void refusesOutputWithoutASummary() {
        assertThrows(Generator.LoadException.class, () -> HeyGenerator.parse("flag provided but not defined: -x\n", Path.of("x")));
    }
}
