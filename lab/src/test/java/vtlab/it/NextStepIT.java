package vtlab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;


/**
 * ./vtlab ab --next-step end to end, positive controls with a known right answer on the lab's own stacks treated as
 * foreign services: the Spring rig with a pool too small for its load (the pool lever must buy at least 1.5x and move
 * the largest cause off the pool), and a service whose one CPU is full (no lever answers: nothing is run, nothing is
 * claimed as a gain). Short rows: a few seconds of warm-up and hold each, one thread mode.
 */
@org.junit.jupiter.api.extension.ExtendWith(SharedTiers.Resolver.class)
class NextStepIT {
    @TempDir
    Path out;

    record Ran(int exit, String console, long seconds) {}

    Ran ab(List<String> args) throws Exception {
        List<String> all = new ArrayList<>(List.of("ab", "--port", Integer.toString(Lab.freePort()), "--out", out.toString()));
        all.addAll(args);
        Path console = Files.createTempFile(out, "console", ".txt");
        long t0 = System.nanoTime();
        Process lab = Lab.cli(all).redirectErrorStream(true).redirectOutput(console.toFile()).start();
        assertTrue(lab.waitFor(420, TimeUnit.SECONDS), "ab finished: " + Files.readString(console));
        long s = (System.nanoTime() - t0) / 1_000_000_000;
        System.out.println("vtlab IT: NextStepIT ab took " + s + " s");
        return new Ran(lab.exitValue(), Files.readString(console), s);
    }

    /** The rows of each configuration in the order they ran: the A/B's first ("ab"), then each lever value ("pool:20"). */
    static Map<String, List<Map<String, String>>> byLever(List<Map<String, String>> rows) {
        Map<String, List<Map<String, String>>> out = new LinkedHashMap<>();
        for (Map<String, String> r : rows) {
            String lever = vtlab.data.DataRow.of(r).param("lever");
            out.computeIfAbsent(lever == null ? "ab" : lever, k -> new ArrayList<>()).add(r);
        }
        return out;
    }

    /** Mean throughput of the rows that gave one. */
    static double rps(List<Map<String, String>> rows) {
        return rows.stream().mapToDouble(r -> vtlab.data.DataRow.of(r).num("throughput_rps")).filter(v -> !Double.isNaN(v)).average().orElse(Double.NaN);
    }

    static String causes(List<Map<String, String>> rows) {
        return rows.stream().map(r -> r.get("time_top_cause") + " " + r.get("time_" + r.get("time_top_cause") + "_pct") + "% "
                + r.get("throughput_rps") + " req/s " + r.get("status") + " " + r.get("flags")).toList().toString();
    }

    static String sha256(Path f) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f)));
    }

    /**
     * The seeds' story, one step on: virtual threads at 200 connections, each request holding one of 10 pooled
     * connections across a short downstream call, wait mostly for the pool. The next step doubles it (then, while that
     * gains with the pool still the largest cause, sizes it for what the load asked for): the throughput must grow by 1.5x or more and
     * the largest cause must leave the pool; the verdict says so with the gain's interval, in findings, summary.txt
     * and at the top of report.html; the jar is not touched.
     */
    @Test
    void thePoolLeverBuysThroughputAndMovesTheCauseOffThePool(SharedTiers shared) throws Exception {
        String before = sha256(AbIT.SPRING_JAR);
        List<String> args = new ArrayList<>(List.of("--app", AbIT.SPRING_JAR.toString(), "--url", "/api/order-summary/random",
                "--modes", "virtual", "--variants", "as-shipped", "--conc", "200", "--reps", "2",
                "--warmup", "3s", "--warmup-max", "0s", "--hold", "5s", "--next-step",
                "--env", "CONN_MODE=held", "--env", "HIKARI_MAX_POOL=10", "--env", "DOWNSTREAM_DELAY_MS=" + DOWNSTREAM_MS));
        shared.pg().sutEnv().forEach((k, v) -> args.addAll(List.of("--env", k + "=" + v)));
        shared.stub().sutEnv().forEach((k, v) -> args.addAll(List.of("--env", k + "=" + v)));
        Ran r = ab(args);
        assertEquals(0, r.exit(), r.console());
        Path run = Lab.onlyRun(out);
        List<Map<String, String>> rows = Lab.rows(run);
        Map<String, List<Map<String, String>>> by = byLever(rows);
        System.out.println("vtlab IT: pool control: " + by.keySet() + " " + by.values().stream().map(NextStepIT::causes).toList());
        List<Map<String, String>> ab = by.get("ab");
        assertEquals(2, ab.size(), rows.toString());
        for (Map<String, String> row : ab) assertEquals("pool_wait", row.get("time_top_cause"), "the control's premise: " + causes(ab));
        List<Map<String, String>> doubled = by.get("pool:20");
        assertTrue(doubled != null && doubled.size() == 2, "the pool doubled, two reps: " + by.keySet());
        for (Map<String, String> row : doubled) {
            assertFalse(vtlab.data.DataRow.of(row).failed(), row.get("note"));
            assertTrue(Files.readString(run.resolve("raw").resolve(row.get("sut_log"))).contains("--spring.datasource.hikari.maximum-pool-size=20"));
        }
        double base = rps(ab);
        List<Map<String, String>> last = new ArrayList<>(by.values()).getLast();
        double best = by.entrySet().stream().filter(e -> !e.getKey().equals("ab")).mapToDouble(e -> rps(e.getValue())).max().orElse(0);
        assertTrue(best / base >= 1.5, "the pool must buy 1.5x: " + best + " against " + base);
        for (Map<String, String> row : last) assertNotEquals("pool_wait", row.get("time_top_cause"), "the cause leaves the pool: " + causes(last));
        System.out.println("vtlab IT: pool control: " + vtlabFinding(run, "next step"));
        String findings = Files.readString(run.resolve("findings.json"));
        // on a busy machine its rows are flagged busy-machine: the line says "(from flagged rows: not evidence)" and claims no gain
        assertTrue(findings.contains("next step, /api/order-summary/random at 200 connections, virtual as shipped (rows 1, 2)"), findings);
        assertTrue(findings.contains("→ pool 20 (rows 3, 4): +") && findings.contains("req/s (95% CI "), findings);
        assertTrue(findings.contains("the largest cause is now"), findings);
        assertTrue(Files.readString(run.resolve("summary.txt")).contains("→ pool 20 (rows 3, 4)"));
        String report = Files.readString(run.resolve("report.html"));
        assertTrue(report.contains("→ pool 20") && report.indexOf("→ pool 20") < report.indexOf("id=\"row-1\""), "the verdict at the top of the report");
        assertTrue(report.contains("href=\"#row-4\""), "its claim links its rows");
        assertEquals(before, sha256(AbIT.SPRING_JAR), "nothing in the user's jar changes");
    }

    /**
     * The stub's delay per call, ms: each request holds its connection across it, so the pool of 10 is the wall (about
     * 10 / (delay + query) req/s) and doubling it doubles that; the pool the load asks for (every request in flight)
     * leaves the SUT's one CPU or the tiers' as the wall.
     */
    static final int DOWNSTREAM_MS = 20;

    /**
     * One CPU full (the servlet's /hello at 200 connections on platform threads): no lever answers a full CPU, so the
     * verdict names what would help instead; a lever of the user's that the service never reads (an environment
     * variable) is run when asked and is not claimed as a gain.
     */
    @Test
    void aFullCpuHasNoLeverAndALeverThatDoesNothingIsNoGain() throws Exception {
        List<String> args = new ArrayList<>(List.of("--cmd", "java -jar " + AbIT.SERVLET_JAR, "--platform-env", "THREAD_MODE=platform",
                "--virtual-env", "THREAD_MODE=virtual", "--url", "/hello", "--modes", "platform", "--conc", "200", "--reps", "2",
                "--warmup", "3s", "--warmup-max", "0s", "--hold", "5s", "--jvm-args", "-Xmx256m", "--next-step", "--lever", "NOT_READ_BY_THE_SERVICE=1"));
        Ran r = ab(args);
        assertEquals(0, r.exit(), r.console());
        Path run = Lab.onlyRun(out);
        List<Map<String, String>> rows = Lab.rows(run);
        Map<String, List<Map<String, String>>> by = byLever(rows);
        System.out.println("vtlab IT: no-lever control: " + by.keySet() + " " + by.values().stream().map(NextStepIT::causes).toList());
        for (Map<String, String> row : by.get("ab")) {
            assertTrue(List.of("cpu", "runqueue").contains(row.get("time_top_cause")), "the control's premise, a full CPU: " + causes(by.get("ab")));
        }
        assertEquals(List.of("ab", "NOT_READ_BY_THE_SERVICE:1"), List.copyOf(by.keySet()), "the user's lever only: no lab lever answers a full CPU");
        String line = vtlabFinding(run, "next step, /hello at 200 connections, platform");
        System.out.println("vtlab IT: no-lever control: " + line);
        assertTrue(line.contains("→ NOT_READ_BY_THE_SERVICE=1 (rows 3, 4): "), line);
        assertFalse(line.matches(".*NOT_READ_BY_THE_SERVICE=1 \\(rows 3, 4\\): [+−]\\d+% req/s( \\(95% CI [^)]*\\))?, p99 [+−]\\d+%;.*"),
                "a lever that does nothing is not claimed as a gain: " + line);
        assertTrue(line.contains("no gain shown") || line.contains("worse") || line.contains("not evidence"), line);
        assertTrue(line.contains("no lever of the lab's answers it; what would help: "), line);
    }

    /**
     * A heap too small for the allocation rate (the servlet's alloc workload, 256 KB a request into an 8 MB ring, on a
     * 40 MB heap, as ProfileControlIT's GC control): GC is the largest cause, the heap lever is the one tried, and the
     * heap as far as the next step took it must cut GC's share of request time by 40% or more and leave GC no longer
     * the largest cause. One rep: the claim is a share, measured in each row.
     */
    @Test
    void theHeapLeverCutsGcsShareOnAHeapTooSmall() throws Exception {
        List<String> args = new ArrayList<>(List.of("--cmd", "java -jar " + AbIT.SERVLET_JAR, "--platform-env", "THREAD_MODE=platform",
                "--virtual-env", "THREAD_MODE=virtual", "--url", "/alloc?kb=256", "--modes", "platform", "--conc", "4", "--reps", "1",
                "--warmup", "3s", "--warmup-max", "0s", "--hold", "5s", "--jvm-args", "-Xms40m -Xmx40m", "--next-step"));
        Ran r = ab(args);
        assertEquals(0, r.exit(), r.console());
        Path run = Lab.onlyRun(out);
        Map<String, List<Map<String, String>>> by = byLever(Lab.rows(run));
        System.out.println("vtlab IT: heap control: " + by.keySet() + " " + by.values().stream().map(NextStepIT::causes).toList()
                + " gc% " + by.values().stream().map(l -> l.getFirst().get("time_gc_pct")).toList());
        Map<String, String> base = by.get("ab").getFirst();
        assertEquals("gc", base.get("time_top_cause"), "the control's premise: " + causes(by.get("ab")));
        List<Map<String, String>> doubled = by.get("heap:80m");
        assertTrue(doubled != null, "the heap doubled: " + by.keySet());
        assertTrue(Files.readString(run.resolve("raw").resolve(doubled.getFirst().get("sut_log"))).contains("-Xmx80m"));
        // the heap as far as the next step took it (doubled; four times while GC stayed the largest cause)
        Map<String, String> last = new ArrayList<>(by.values()).getLast().getFirst();
        double before = Lab.num(base, "time_gc_pct"), after = Lab.num(last, "time_gc_pct");
        assertTrue(after <= 0.6 * before && !"gc".equals(last.get("time_top_cause")),
                "the heap lever cuts GC's share and GC is no longer the largest cause: " + before + "% -> " + after + "% (" + causes(List.of(last)) + ")");
        String line = vtlabFinding(run, "next step, /alloc?kb=256 at 4 connections, platform");
        System.out.println("vtlab IT: heap control: " + line);
        assertTrue(line.contains("→ heap 80m (row 2): "), line);
    }

    static String vtlabFinding(Path run, String prefix) throws Exception {
        List<String> all = vtlab.data.Findings.read(run).of("ab").lines();
        return all.stream().filter(l -> l.startsWith(prefix)).findFirst().orElseThrow(() -> new AssertionError("no line " + prefix + " in " + all));
    }
}
