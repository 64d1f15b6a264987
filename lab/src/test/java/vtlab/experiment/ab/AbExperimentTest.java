package vtlab.experiment.ab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.cli.Main;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.plan.PlanContext;
import vtlab.plan.Row;
import vtlab.stack.Stack;

/** ab's plan from the command line (a real Spring Boot jar's manifest), its refusals, and its verdict's words. */
class AbExperimentTest {
    static final Path HOME = Path.of(System.getProperty("vtlab.home", "..")).toAbsolutePath();
    static final String SPRING_JAR = HOME.resolve("stacks/spring-mvc/target/vtlab-spring-mvc.jar").toString();
    static final String SERVLET_JAR = HOME.resolve("stacks/servlet/target/vtlab-servlet.jar").toString();

    @TempDir
    Path dir;

    static List<Row> plan(String... args) throws UsageError {
        List<String> all = new ArrayList<>(List.of("ab"));
        all.addAll(List.of(args));
        Options o = Options.parse(all);
        PlanContext ctx = PlanContext.from(o);
        return new AbExperiment().plan(ctx.forExperiments(o), ctx);
    }

    @Test
    void aSpringBootJarIsSwitchedByTheLabWithATunedThirdVariant() throws Exception {
        List<Row> rows = plan("--app", SPRING_JAR, "--url", "/sleep?ms=50", "--url", "/a,b", "--conc", "200", "--port", "18123",
                "--env", "DB_URL=jdbc:postgresql://127.0.0.1:5/x?a=1,b=2");
        assertEquals(3 * 2, rows.size(), "platform, virtual as shipped, virtual tuned x two urls");
        Row platform = rows.getFirst(), shipped = rows.get(2), tuned = rows.get(4);
        assertEquals(List.of("--server.port=18123", "--server.address=127.0.0.1", "--spring.threads.virtual.enabled=false",
                "--spring.datasource.hikari.register-mbeans=true"), platform.appArgs());
        assertEquals("virtual", shipped.threadMode());
        assertTrue(shipped.appArgs().contains("--spring.threads.virtual.enabled=true"));
        assertTrue(!shipped.appArgs().contains("--server.tomcat.processor-cache=-1") && shipped.carriers() == null, "as shipped");
        assertTrue(tuned.appArgs().contains("--server.tomcat.processor-cache=-1") && tuned.carriers() != null, "tuned: " + tuned.appArgs());
        assertEquals("jdbc:postgresql://127.0.0.1:5/x?a=1,b=2", platform.sutEnv().get("DB_URL"), "commas kept");
        assertEquals("/a,b", rows.get(1).workload());
        assertTrue(platform.jvmArgs().isEmpty(), "the service keeps its own heap unless --jvm-args");
        Stack s = Stack.load(platform.stack());
        assertEquals(List.of("vtlab.sut.springmvc."), s.launch().appPackages(), "Start-Class's package trims pinning stacks");
        assertTrue(!s.reportsRuntimeInfo() && s.launch().command() == null);
    }

    @Test
    void aCommandIsSwitchedByItsOwnArgsAndEnvAndHasNoTunedVariant() throws Exception {
        List<Row> rows = plan("--cmd", "java -jar " + SERVLET_JAR, "--virtual-env", "THREAD_MODE=virtual", "--virtual-args", "--x=1 --y=2",
                "--url", "/sleep?ms=50", "--conc", "10", "--app-package", "vtlab.sut.servlet");
        assertEquals(2, rows.size());
        assertEquals(Map.of(), rows.getFirst().sutEnv());
        assertEquals(Map.of("THREAD_MODE", "virtual"), rows.get(1).sutEnv());
        assertEquals(List.of("--x=1", "--y=2"), rows.get(1).appArgs());
        assertEquals(List.of("vtlab.sut.servlet."), Stack.load(rows.getFirst().stack()).launch().appPackages());
    }

    static String refusal(String... args) {
        UsageError e = assertThrows(UsageError.class, () -> Main.run(List.of(args), System.out));
        assertEquals(1, e.getMessage().lines().count(), "one line: " + e.getMessage());
        return e.getMessage();
    }

    @Test
    void badInputIsRefusedBeforeAnythingStarts() throws Exception {
        Path notAJar = Files.writeString(dir.resolve("service.jar"), "not a zip");
        Map<String, List<String>> cases = new LinkedHashMap<>();
        cases.put("no such file", List.of("ab", "--app", dir.resolve("missing.jar").toString(), "--url", "/"));
        cases.put("is not a jar", List.of("ab", "--app", notAJar.toString(), "--url", "/"));
        cases.put("--app PATH.jar or --cmd", List.of("ab", "--url", "/"));
        cases.put("one of them", List.of("ab", "--app", SPRING_JAR, "--cmd", "java -jar x", "--url", "/"));
        cases.put("at least one --url", List.of("ab", "--app", SPRING_JAR));
        cases.put("takes a path on the service", List.of("ab", "--app", SPRING_JAR, "--url", "http://example.com/"));
        cases.put("say how to switch it", List.of("ab", "--cmd", "java -jar x.jar", "--url", "/"));
        cases.put("--variants tuned", List.of("ab", "--cmd", "java -jar x.jar", "--virtual-env", "A=1", "--variants", "tuned", "--url", "/"));
        cases.put("--warmup cannot be 0", List.of("ab", "--app", SPRING_JAR, "--url", "/", "--warmup", "0s"));
        cases.put("--expect-status takes 2xx", List.of("ab", "--app", SPRING_JAR, "--url", "/", "--expect-status", "ok"));
        cases.put("--expect-body is not a regex", List.of("ab", "--app", SPRING_JAR, "--url", "/", "--expect-body", "(("));
        cases.put("--virtual-env takes K=V", List.of("ab", "--cmd", "x", "--virtual-env", "NOVALUE", "--url", "/"));
        cases.put("--method takes GET", List.of("ab", "--app", SPRING_JAR, "--url", "/", "--method", "POST"));
        cases.put("--start-timeout", List.of("ab", "--app", SPRING_JAR, "--url", "/", "--start-timeout", "soon"));
        cases.put("ab takes options only", List.of("ab", "extra", "--app", SPRING_JAR, "--url", "/"));
        cases.forEach((expected, args) -> {
            String msg = refusal(args.toArray(String[]::new));
            assertTrue(msg.contains(expected), expected + " <- " + msg);
        });
    }

    // ---- the verdict

    static Map<String, String> row(String mode, String tuning, int c, double rps, double p99, String status, String note) {
        Map<String, String> r = new LinkedHashMap<>();
        r.put("thread_mode", mode);
        r.put("params", "tuning=" + tuning);
        r.put("workload", "/sleep?ms=50");
        r.put("load_model", "closed");
        r.put("concurrency", Integer.toString(c));
        r.put("throughput_rps", status.equals("failed") ? "" : Double.toString(rps));
        r.put("p99_ms", status.equals("failed") ? "" : Double.toString(p99));
        r.put("status", status);
        r.put("note", note);
        r.put("flags", "");
        r.put("jdk", "21");
        r.put("jvm_threads_max", mode.equals("platform") ? "220" : "30");
        r.put("rss_mb_max", "300");
        return r;
    }

    @Test
    void theVerdictSeparatesTheFlagFromTuningAndNamesItsRows() {
        List<Map<String, String>> rows = List.of(row("platform", "as-shipped", 1000, 3900, 300, "ok", ""),
                row("virtual", "as-shipped", 1000, 10600, 120, "ok", ""), row("virtual", "tuned", 1000, 18000, 80, "ok", ""));
        rows.get(2).put("pinned_events", "12");
        rows.get(2).put("pinned_total_ms", "30");
        rows.get(2).put("pinned_max_ms", "5.5");
        List<String> v = Verdict.of(rows, dir.resolve("none.txt"));
        String gain = v.stream().filter(l -> l.startsWith("/sleep?ms=50 at 1,000 connections")).findFirst().orElseThrow();
        assertTrue(gain.contains("platform 3,900 req/s (p99 300.0 ms) (row 1)"), gain);
        assertTrue(gain.contains("virtual as shipped 10,600 req/s (p99 120.0 ms) = 2.72× platform (row 2)"), gain);
        assertTrue(gain.contains("The flag alone gives 2.72×, tuning adds 1.70×"), gain);
        String pin = v.stream().filter(l -> l.startsWith("pinning:")).findFirst().orElseThrow();
        assertTrue(pin.contains("(row 3)") && pin.contains("JDK 24+ no longer pins there"), pin);
        assertTrue(v.stream().anyMatch(l -> l.startsWith("memory and threads at peak: platform 220 OS threads")), v.toString());
    }

    @Test
    void failedVirtualRowsAreSaidFirstAndGiveNoNumbers() throws Exception {
        List<Map<String, String>> rows = List.of(row("platform", "as-shipped", 200, 3900, 60, "ok", ""),
                row("virtual", "as-shipped", 200, 0, 0, "failed", "virtual threads not in effect: 0 request(s) on virtual threads, 40 on platform threads"));
        List<String> v = Verdict.of(rows, dir.resolve("none.txt"));
        assertTrue(v.getFirst().startsWith("FAILED, no numbers: virtual as shipped (row 2): virtual threads not in effect"), v.getFirst());
        assertTrue(v.stream().noneMatch(l -> l.contains("virtual as shipped 0")), v.toString());
    }

    @Test
    void thePinnedFrameComesFromTheServicesOwnCode() throws Exception {
        Path pinning = Files.writeString(dir.resolve("pinning.txt"), """
                ## 003-ab-virtual-_sleep-c200-r1  ab virtual /sleep c=200 tuning=tuned jdk21 rep 1
                12 pinned events, total 30.0 ms, max 5.5 ms, reasons {}
                    12 x java.lang.VirtualThread.parkOnCarrierThread:680
                         com.acme.OrderCache.get:42
                         com.acme.OrderController.order:17

                """);
        assertEquals(Map.of(3, "`com.acme.OrderCache.get`"), Verdict.appFrames(pinning));
    }
}
