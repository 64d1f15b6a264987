package vtlab.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

class WrkGeneratorTest {

    static String resource(String name) throws Exception {
        try (var in = WrkGeneratorTest.class.getResourceAsStream("/vtlab/" + name)) {
            return new String(in.readAllBytes());
        }
    }

    @Test
    void parsesTheJsonBlockOfARealWrkRun() throws Exception {
        // captured from `./vtlab run servlet --workloads sleep --conc 400 --modes virtual` on the 2-core dev machine
        LoadResult r = WrkGenerator.parse(resource("wrk-sleep-virtual-c400.txt"), Path.of("x.wrk.txt"));
        assertEquals(130752, r.requests());
        assertEquals(20.036259, r.durationS(), 1e-9);
        assertEquals(130752 / 20.036259, r.rps(), 1e-6);
        // wrk's text output says 6525.77 req/s: our number must agree with the tool's own
        assertEquals(6525.77, r.rps(), 0.01);
        assertEquals(55.833, r.p50Ms(), 1e-9);
        assertEquals(111.533, r.p99Ms(), 1e-9);
        assertEquals(159.313, r.p999Ms(), 1e-9);
        assertEquals(183.802, r.maxMs(), 1e-9);
        assertEquals(60.113145, r.meanMs(), 1e-9);
        assertEquals(0, r.errors());
        assertEquals(0.0, r.errorRate());
    }

    @Test
    void countsEveryKindOfErrorAndTheRate() throws Exception {
        String text = """
                Running 1s test
                VTLAB_JSON_BEGIN
                {"requests":900,"duration_us":1000000,"bytes":1,"errors":{"connect":50,"read":3,"write":2,"status":40,"timeout":50},"latency_us":{"min":1,"max":2000,"mean":10.5,"stdev":1,"p50":10,"p90":20,"p95":30,"p99":40,"p999":50}}
                VTLAB_JSON_END
                """;
        LoadResult r = WrkGenerator.parse(text, Path.of("x"));
        assertEquals(145, r.errors());
        // attempted = completed 900 + connect errors 50 + timeouts 50 = 1000
        assertEquals(0.145, r.errorRate(), 1e-12);
        assertEquals(2.0, r.maxMs(), 1e-12);
    }

    @Test
    void refusesOutputWithoutTheResultBlock() {
        var e = assertThrows(Generator.LoadException.class,
                () -> WrkGenerator.parse("unable to connect to 127.0.0.1:1 Connection refused\n", Path.of("x")));
        assertTrue(e.getMessage().contains("Connection refused"), e.getMessage());
    }

    @Test
    void scriptSetsMethodBodyAndDoneHook() {
        String lua = WrkGenerator.script("POST", "x".repeat(1024));
        assertTrue(lua.contains("wrk.method = \"POST\""));
        assertTrue(lua.contains("string.rep(\"x\", 1024)"));
        assertTrue(lua.contains("latency:percentile(99.9)"));
        assertTrue(WrkGenerator.script("GET", null).lines().noneMatch(l -> l.startsWith("wrk.body")));
    }
}
