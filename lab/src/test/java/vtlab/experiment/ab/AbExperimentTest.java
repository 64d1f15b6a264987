package vtlab.experiment.ab;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

import vtlab.check.JarLibraries;
import vtlab.cli.Main;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.plan.PlanContext;
import vtlab.plan.Row;
import vtlab.proc.Env;
import vtlab.stack.Request;
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
        Options o = vtlab.cli.Main.parse(all);
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
        assertEquals(Env.NONE, rows.getFirst().sutEnv());
        assertEquals(Env.NONE.with("THREAD_MODE", "virtual"), rows.get(1).sutEnv());
        assertEquals(List.of("--x=1", "--y=2"), rows.get(1).appArgs());
        assertEquals(List.of("vtlab.sut.servlet."), Stack.load(rows.getFirst().stack()).launch().appPackages());
    }

    @Test
    void forksAreFreshJvmsInterleavedAndIterationsFollowInTheirFork() throws Exception {
        List<Row> rows = plan("--app", SPRING_JAR, "--url", "/x", "--conc", "200", "--variants", "as-shipped", "--forks", "2", "--iterations", "2");
        assertEquals(List.of("platform 1.1", "platform 1.2", "virtual 1.1", "virtual 1.2", "platform 2.1", "platform 2.2", "virtual 2.1", "virtual 2.2"),
                rows.stream().map(r -> r.threadMode() + " " + r.fork() + "." + r.iteration()).toList(), "platform, virtual, platform, virtual");
        assertEquals(List.of(1, 2, 1, 2, 3, 4, 3, 4), rows.stream().map(Row::rep).toList(), "rep numbers a configuration's rows");
        assertTrue(rows.get(0).startsFork() && rows.get(1).continuesFork() && rows.get(4).startsFork());
        // --reps N, as scripts before forks wrote it: N forks of one iteration each, each a fresh JVM
        List<Row> reps = plan("--app", SPRING_JAR, "--url", "/x", "--conc", "200", "--modes", "platform", "--reps", "3");
        assertEquals(List.of("1.1", "2.1", "3.1"), reps.stream().map(r -> r.fork() + "." + r.iteration()).toList());
    }

    @Test
    void aBudgetMustHoldOneForkOfEachConfiguration() throws Exception {
        // 3 configurations x (15 s start + 10 s warm-up + 20 s hold + 20 s explaining hold) = 3m15s
        String small = refusal("ab", "--app", SPRING_JAR, "--url", "/x", "--conc", "200", "--budget", "3m");
        assertEquals("--budget 3m: 1 fork of each of the 3 configurations takes about 3m15s (start 15s, warm-up 10s, 1 hold of 20s each, and one explaining"
                + " hold a configuration): give at least 3m15s, or fewer --conc, --url or --variants", small);
        // a later fork runs no explaining hold (its configuration's first ok fork explained it): 3 x (65 s + 45 s) = 5m30s
        assertTrue(refusal("ab", "--app", SPRING_JAR, "--url", "/x", "--conc", "200", "--forks", "2", "--budget", "5m")
                .startsWith("--budget 5m: 2 forks of each of the 3 configurations take about 5m30s"));
        assertEquals(6, plan("--app", SPRING_JAR, "--url", "/x", "--conc", "200", "--forks", "2", "--budget", "330s").size());
        assertEquals(3, plan("--app", SPRING_JAR, "--url", "/x", "--conc", "200", "--budget", "4m").size(), "the first fork of each: the search adds the rest");
        assertTrue(refusal("ab", "--app", SPRING_JAR, "--url", "/x", "--budget", "0s").contains("--budget must be longer than zero"));
        assertTrue(refusal("ab", "--app", SPRING_JAR, "--url", "/x", "--budget", "-1m").contains("--budget takes a duration like 20s"));
        assertTrue(refusal("ab", "--app", SPRING_JAR, "--url", "/x", "--reps", "2", "--forks", "3").startsWith("--reps N is N forks of one iteration each"));
        assertTrue(refusal("ab", "--app", SPRING_JAR, "--url", "/x", "--forks", "many").contains("--forks"));
        assertTrue(refusal("ab", "--app", SPRING_JAR, "--url", "/x", "--iterations", "0").contains("--iterations must be positive"));
    }

    @Test
    void anAotCacheIsTheAppsDefaultOnJdk25AndLater() throws Exception {
        Row cached = plan("--app", SPRING_JAR, "--url", "/x", "--conc", "200", "--forks", "1").getFirst();
        assertTrue(vtlab.stack.Stack.load(cached.stack()).launch().aotCache(), "by default an --app fork starts from the cache");
        Row said = plan("--app", SPRING_JAR, "--aot-cache", "--url", "/x", "--conc", "200", "--forks", "1").getFirst();
        assertTrue(vtlab.stack.Stack.load(said.stack()).launch().aotCache(), "--aot-cache, as scripts still give it, is the default");
        Row plain = plan("--app", SPRING_JAR, "--no-aot-cache", "--url", "/x", "--conc", "200", "--forks", "1").getFirst();
        assertFalse(vtlab.stack.Stack.load(plain.stack()).launch().aotCache(), "--no-aot-cache: the jar as shipped");
        Row cmd = plan("--cmd", "java -jar " + SERVLET_JAR, "--virtual-env", "A=1", "--url", "/x", "--conc", "200", "--forks", "1").getFirst();
        assertFalse(vtlab.stack.Stack.load(cmd.stack()).launch().aotCache(), "a --cmd starts its JVM itself");
        assertTrue(refusal("ab", "--cmd", "java -jar " + SERVLET_JAR, "--virtual-env", "A=1", "--aot-cache", "--url", "/x")
                .startsWith("--aot-cache takes --app"));
        assertEquals("--aot-cache and --no-aot-cache: give one of them",
                refusal("ab", "--app", SPRING_JAR, "--aot-cache", "--no-aot-cache", "--url", "/x"));
        java.util.Optional<vtlab.tier.tool.Jdk> old = vtlab.tier.tool.Jdk.discover().stream().filter(j -> j.major() < vtlab.tier.AotCache.MIN_JDK).findFirst();
        org.junit.jupiter.api.Assumptions.assumeTrue(old.isPresent(), "no JDK before 25 on this machine");
        Row older = plan("--app", SPRING_JAR, "--url", "/x", "--conc", "200", "--forks", "1", "--jdk", old.get().home().toString()).getFirst();
        assertFalse(vtlab.stack.Stack.load(older.stack()).launch().aotCache(), "with a JDK before 25 asked, no fork starts from a cache");
        assertTrue(refusal("ab", "--app", SPRING_JAR, "--aot-cache", "--url", "/x", "--jdk", old.get().home().toString())
                .startsWith("--aot-cache with --jdk "));
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
        cases.put("--method takes GET", List.of("ab", "--app", SPRING_JAR, "--url", "/", "--method", "FETCH"));
        Path json = Files.writeString(dir.resolve("order.json"), "{}");
        List<String> post = List.of("ab", "--app", SPRING_JAR, "--url", "/", "--method", "POST");
        cases.put("--body @" + dir.resolve("missing.json") + ": no such readable file", concat(post, "--body", "@" + dir.resolve("missing.json"),
                "--header", "Content-Type: application/json"));
        cases.put("--body @" + dir + ": no such readable file", concat(post, "--body", "@" + dir, "--header", "Content-Type: a/b"));
        cases.put("--header takes \"Name: value\", not 'Content-Type application/json'", concat(post, "--header", "Content-Type application/json"));
        cases.put("--header takes \"Name: value\", not ': x'", concat(post, "--header", ": x"));
        cases.put("--body with --method GET: a GET request has no body", List.of("ab", "--app", SPRING_JAR, "--url", "/", "--body", "@" + json,
                "--header", "Content-Type: application/json"));
        cases.put("--body with --method HEAD", List.of("ab", "--app", SPRING_JAR, "--url", "/", "--method", "head", "--body", "x",
                "--header", "Content-Type: text/plain"));
        cases.put("--body needs its type: add --header \"Content-Type: ...\"", concat(post, "--body", "@" + json));
        cases.put("--header x-a is given twice", concat(post, "--header", "X-A: 1", "--header", "x-a: 2"));
        cases.put("--header Host: the lab and the generators set it themselves", concat(post, "--header", "Host: example.com"));
        cases.put("--header Content-Length: the lab", concat(post, "--header", "Content-Length: 3"));
        cases.put("--header X A: a header name has letters", concat(post, "--header", "X A: 1"));
        cases.put("--header X-Empty has no value", concat(post, "--header", "X-Empty:"));
        cases.put("--start-timeout", List.of("ab", "--app", SPRING_JAR, "--url", "/", "--start-timeout", "soon"));
        cases.put("ab takes options only", List.of("ab", "extra", "--app", SPRING_JAR, "--url", "/"));
        // the equivalence margin: a percent above 0 and at most 50%, one line, before anything starts
        cases.put("--margin 0: the band around 1.0", List.of("ab", "--app", SPRING_JAR, "--url", "/", "--margin", "0"));
        cases.put("--margin 150%: the band around 1.0", List.of("ab", "--app", SPRING_JAR, "--url", "/", "--margin", "150%"));
        cases.put("--margin abc: a percent is expected, e.g. --margin 5%", List.of("ab", "--app", SPRING_JAR, "--url", "/", "--margin", "abc"));
        cases.forEach((expected, args) -> {
            String msg = refusal(args.toArray(String[]::new));
            assertTrue(msg.contains(expected), expected + " <- " + msg);
        });
    }

    static List<String> concat(List<String> a, String... more) {
        List<String> all = new ArrayList<>(a);
        all.addAll(List.of(more));
        return all;
    }

    @Test
    void theRequestIsTheMethodHeadersInOrderAndTheBodysBytes() throws Exception {
        byte[] bytes = {'{', '"', 'q', '"', ':', 0, (byte) 0xff, '\n', '}'};
        Path body = Files.write(dir.resolve("order.bin"), bytes);
        List<Row> rows = plan("--cmd", "java -jar " + SERVLET_JAR, "--virtual-env", "THREAD_MODE=virtual", "--url", "/echo", "--conc", "10",
                "--method", "put", "--header", "X-Trace:  a: b ", "--header", "Content-Type: application/json", "--header", "Authorization: Bearer t",
                "--body", "@" + body);
        Request r = Stack.load(rows.getFirst().stack()).workload("/echo").withParams(rows.getFirst().params()).request();
        assertEquals("PUT", r.method());
        assertEquals(List.of(new Request.Header("X-Trace", "a: b"), new Request.Header("Content-Type", "application/json"),
                new Request.Header("Authorization", "Bearer t")), r.headers(), "in the order given, values trimmed, the real credential");
        assertArrayEquals(bytes, r.body().bytes());
        assertEquals(body.toAbsolutePath(), r.body().file(dir.resolve("raw")), "the user's file is read by the generators, not copied");
        Request literal = Stack.load(plan("--cmd", "java -jar " + SERVLET_JAR, "--virtual-env", "A=1", "--url", "/echo", "--method", "POST",
                "--body", "née \"x\"", "--header", "Content-Type: text/plain; charset=UTF-8").getFirst().stack()).workload("/echo").request();
        assertArrayEquals("née \"x\"".getBytes(java.nio.charset.StandardCharsets.UTF_8), literal.body().bytes(), "a literal body is its UTF-8 text");
        assertEquals(null, Stack.load(plan("--app", SPRING_JAR, "--url", "/a", "--method", "POST").getFirst().stack()).workload("/a").request().body(),
                "POST without a body is allowed");
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
        List<String> v = Verdict.of(vtlab.data.DataRow.numbered(rows), dir.resolve("none.txt"));
        String gain = v.stream().filter(l -> l.startsWith("/sleep?ms=50 at 1,000 connections")).findFirst().orElseThrow();
        assertTrue(gain.contains("platform 3,900 req/s (p99 300.0 ms) (row 1)"), gain);
        assertTrue(gain.contains("virtual as shipped 10,600 req/s (p99 120.0 ms) = 2.72× (one fork a side: no interval) platform (row 2)"), gain);
        // one fork a side: a direction, never a claim
        assertTrue(gain.contains("The flag alone: 2.72× (one fork a side: no interval); tuning adds 1.70× (one fork a side: no interval)."), gain);
        // no constant stands in for the spread between forks: this machine's measured floor, or that none was measured
        assertTrue(gain.endsWith("One fork per configuration: a direction, not a result (--forks 3, or --forks auto within --budget, give each ratio its interval;"
                + " not measured on this machine: run ./vtlab ab --aa)"), gain);
        // the same rows under --forks auto: a second fork was never begun, so the budget is what to change
        String auto = Verdict.findings(vtlab.data.DataRow.numbered(rows), dir.resolve("none.txt"), null, Map.of(), null,
                new Judging(vtlab.data.judge.Margin.DEFAULT, vtlab.data.judge.Judge.SEQUENTIAL_LEVEL)).stream().map(vtlab.data.Finding::text)
                .filter(l -> l.startsWith("/sleep?ms=50 at 1,000 connections")).findFirst().orElseThrow();
        assertTrue(auto.contains("(--forks auto's --budget ran out before a second fork of each: a longer --budget gives each ratio its interval;"), auto);
        String pin = v.stream().filter(l -> l.startsWith("pinning:")).findFirst().orElseThrow();
        assertTrue(pin.contains("(row 3)") && pin.contains("JDK 24+ no longer pins there"), pin);
        assertTrue(v.stream().anyMatch(l -> l.startsWith("memory and threads at peak: platform 220 OS threads")), v.toString());
    }

    /**
     * The issue's sleep A/B at 400 connections: virtual as shipped had six times platform's RSS, its Serial collector
     * having promoted garbage into an old generation it never collected; its live set after a full collection was 88 MB
     * against platform's 52. The memory line compares the live sets and says the RSS is a heap grown, not data kept; a
     * live set that is larger is said as such.
     */
    @Test
    void theMemoryLineComparesLiveSetsAndNamesAHeapGrown() {
        Map<String, String> p = row("platform", "as-shipped", 400, 4000, 120, "ok", ""), v = row("virtual", "as-shipped", 400, 7200, 60, "ok", "");
        p.putAll(Map.of("rss_mb_max", "309", "live_set_mb", "52", "heap_in_use_mb", "60", "heap_grown_mb", "120", "gc_collector", "Serial"));
        v.putAll(Map.of("rss_mb_max", "1774", "live_set_mb", "88", "heap_in_use_mb", "614", "heap_grown_mb", "1531", "gc_collector", "Serial"));
        String line = Verdict.of(vtlab.data.DataRow.numbered(List.of(p, v)), dir.resolve("none.txt")).stream()
                .filter(l -> l.startsWith("memory and threads at peak")).findFirst().orElseThrow();
        assertTrue(line.contains("platform 220 OS threads, 309 MB RSS, 52 MB live after a full collection (Serial: 60 MB in use before it, grown to 120 MB) (row 1)"), line);
        assertTrue(line.contains("virtual as shipped 30 OS threads, 1,774 MB RSS, 88 MB live after a full collection (Serial: 614 MB in use before it, grown to 1,531 MB)"), line);
        assertTrue(line.contains("virtual as shipped's 5.7× platform's RSS is a heap its collector grew, not data it keeps: its live set is 1.69× platform's"), line);
        // data it keeps: a live set apart as far as its RSS is said as a live set
        v.put("live_set_mb", "900");
        String kept = Verdict.of(vtlab.data.DataRow.numbered(List.of(p, v)), dir.resolve("none.txt")).stream()
                .filter(l -> l.startsWith("memory and threads at peak")).findFirst().orElseThrow();
        assertTrue(kept.contains("The data kept, compared: virtual as shipped's live set 17.31× platform's (900 MB against 52 MB)"), kept);
        assertFalse(kept.contains("not data it keeps"), kept);
    }

    /**
     * Forks far apart (the /hello rows of a quiet 2-core VM: 30,578 and 39,875 req/s) are no settled ratio: the verdict
     * gives the ratio's interval between forks and says the forks disagree; rows of a run before forks are a fork each;
     * forks that agree are settled; one fork a configuration is a direction.
     */
    @Test
    void forksThatSpreadAreNotASettledRatio() {
        List<Map<String, String>> loose = List.of(row("platform", "as-shipped", 200, 46260, 16, "ok", ""), row("platform", "as-shipped", 200, 51922, 65, "ok", ""),
                row("virtual", "as-shipped", 200, 30578, 26, "ok", ""), row("virtual", "as-shipped", 200, 39875, 11, "ok", ""));
        String gain = Verdict.of(vtlab.data.DataRow.numbered(loose), dir.resolve("none.txt")).stream().filter(l -> l.startsWith("/sleep?ms=50 at 200 connections")).findFirst().orElseThrow();
        assertTrue(gain.contains("virtual as shipped 35,227 req/s (p99 18.5 ms) = 0.72× (95% CI 0.00–3.65×) platform (rows 3, 4)"), gain);
        // absence of evidence, said as such (it was "no difference" before the judge)
        assertTrue(gain.contains("Virtual threads: undetermined: the interval holds 1.0 and reaches past ±5%"), gain);
        // the farther bound, 409% above the ratio, not half the width (253%); Welch's df rounded down to 1 at 2 forks a side
        assertTrue(gain.endsWith("NOT SETTLED: virtual as shipped / platform 0.72× (95% CI 0.00–3.65×), reaching ±409%, past ±10%: the forks disagree"
                + " (more forks: --forks auto within --budget)"), gain);
        List<Map<String, String>> tight = List.of(row("platform", "as-shipped", 200, 3900, 16, "ok", ""), row("platform", "as-shipped", 200, 3920, 15, "ok", ""),
                row("virtual", "as-shipped", 200, 7700, 26, "ok", ""), row("virtual", "as-shipped", 200, 7660, 11, "ok", ""));
        String settled = Verdict.of(vtlab.data.DataRow.numbered(tight), dir.resolve("none.txt")).stream().filter(l -> l.startsWith("/sleep?ms=50 at 200 connections")).findFirst().orElseThrow();
        assertTrue(settled.endsWith("; settled: both bounds of every ratio's 95% interval within ±10% of it, from 2 forks or more a configuration"), settled);
        String one = Verdict.of(vtlab.data.DataRow.numbered(List.of(row("platform", "as-shipped", 200, 3900, 16, "ok", ""), row("virtual", "as-shipped", 200, 7700, 26, "ok", ""))),
                dir.resolve("none.txt")).stream().filter(l -> l.startsWith("/sleep?ms=50 at 200 connections")).findFirst().orElseThrow();
        assertTrue(one.contains("One fork per configuration: a direction, not a result"), one);
    }

    /**
     * A later fork has no profiled hold of its own once a fork of its configuration was explained: its CPU-bound flag
     * is no rival bottleneck line beside that breakdown's (one answer a configuration); a configuration no fork of
     * which was explained still gets the gauges' line.
     */
    @Test
    void aForkWithoutAProfileOfItsOwnIsExplainedByItsConfigurationsBreakdown() {
        List<Map<String, String>> rows = new java.util.ArrayList<>();
        for (String mode : List.of("platform", "virtual")) {
            for (int fork = 1; fork <= 2; fork++) {
                Map<String, String> r = row(mode, "as-shipped", 40, mode.equals("platform") ? 3000 + fork : 3100 + fork, 20, "ok", "");
                r.put("scenario", "ab " + mode + " /cpu c=40");
                r.put("fork", Integer.toString(fork));
                r.put("flags", "app-cpu-bound");
                r.put("app_cpu_pct", "99");
                if (fork == 1 && mode.equals("virtual")) r.putAll(Map.of("time_top_cause", "cpu", "time_cpu_pct", "90", "time_own_pct", "92"));
                rows.add(r);
            }
        }
        List<String> v = Verdict.of(vtlab.data.DataRow.numbered(rows), dir.resolve("none.txt"));
        List<String> cpu = v.stream().filter(l -> l.startsWith("bottleneck: the SUT's CPU was full")).toList();
        assertEquals(1, cpu.size(), v.toString());
        assertTrue(cpu.getFirst().contains("for platform (rows 1, 2"), "platform had no breakdown: its gauges say it: " + cpu);
    }

    @Test
    void failedVirtualRowsAreSaidFirstAndGiveNoNumbers() throws Exception {
        List<Map<String, String>> rows = List.of(row("platform", "as-shipped", 200, 3900, 60, "ok", ""),
                row("virtual", "as-shipped", 200, 0, 0, "failed", "virtual threads not in effect: 0 request(s) on virtual threads, 40 on platform threads"));
        List<String> v = Verdict.of(vtlab.data.DataRow.numbered(rows), dir.resolve("none.txt"));
        assertTrue(v.getFirst().startsWith("FAILED, no numbers: virtual as shipped (row 2): virtual threads not in effect"), v.getFirst());
        assertTrue(v.stream().noneMatch(l -> l.contains("virtual as shipped 0")), v.toString());
    }

    @Test
    void theJarsLibrariesAreKeptForTheRunAndTheKnownOnesJudgedInTheVerdict() throws Exception {
        Options o = vtlab.cli.Main.parse(List.of("ab", "--app", SPRING_JAR, "--url", "/"));
        Map<String, Object> kept = new AbExperiment().kept(o);
        assertEquals(Path.of(SPRING_JAR).toAbsolutePath().normalize().toString(), kept.get("jar"));
        // as kept.json holds it, read back as ./vtlab report would, with the jar gone or rebuilt since
        vtlab.data.RunKept.planned(Map.of("ab", kept), List.of()).write(new vtlab.data.RunDir(dir));
        ServiceLibraries read = AbKept.read(dir).libraries();
        assertEquals(ServiceLibraries.scan(Path.of(SPRING_JAR).toAbsolutePath().normalize()), read);
        List<Map<String, String>> rows = List.of(row("platform", "as-shipped", 200, 3900, 60, "ok", ""),
                row("virtual", "as-shipped", 200, 5000, 50, "ok", ""));
        List<String> v = Verdict.of(vtlab.data.DataRow.numbered(rows), dir.resolve("none.txt"), read);
        assertTrue(v.stream().anyMatch(l -> l.startsWith("library in vtlab-spring-mvc.jar: org.postgresql:postgresql:42.")), v.toString());
        assertTrue(v.stream().anyMatch(l -> l.startsWith("library in vtlab-spring-mvc.jar: com.zaxxer:HikariCP:")), v.toString());
        assertTrue(v.stream().noneMatch(l -> l.contains("spring-webmvc")), "a library the table does not know is not named");

        ServiceLibraries old = new ServiceLibraries("/x/orders.jar", List.of(new JarLibraries.Library("org.postgresql", "postgresql", "42.7.8",
                "BOOT-INF/lib/postgresql-42.7.8.jar"), new JarLibraries.Library("com.google.guava", "guava", "33.0.0-jre", "BOOT-INF/lib/g.jar")), null);
        List<String> w = Verdict.of(vtlab.data.DataRow.numbered(rows), dir.resolve("none.txt"), old);
        String pg = w.stream().filter(l -> l.startsWith("library in orders.jar: org.postgresql:postgresql:42.7.8: AFFECTED")).findFirst()
                .orElseThrow(() -> new AssertionError(w.toString()));
        assertTrue(pg.contains("met on this run's JDK 21") && pg.contains("fixed in 42.7.9"), pg);
        assertEquals(1, w.stream().filter(l -> l.startsWith("librar")).count(), "guava is not named: " + w);
        List<String> none = Verdict.of(vtlab.data.DataRow.numbered(rows), dir.resolve("none.txt"), new ServiceLibraries("/x/a.jar", List.of(old.libraries().get(1)), null));
        assertTrue(none.contains("libraries: none of the 1 found in a.jar is one the lab knows to matter for virtual threads"), none.toString());
        assertTrue(Verdict.of(vtlab.data.DataRow.numbered(List.of()), dir.resolve("none.txt"), old).getFirst().equals("no row to conclude from"));
    }

    @Test
    void theRunPlansTheJarsLibrariesIntoKeptJson() throws Exception {
        Options o = vtlab.cli.Main.parse(List.of("run", "ab", "--app", SPRING_JAR, "--url", "/", "--port", Integer.toString(vtlab.proc.LoopbackPort.free())));
        vtlab.cli.RunCommand.Prepared p = vtlab.cli.RunCommand.prepare(o, List.of("ab"));
        assertEquals(List.of("ab"), List.copyOf(p.plan().kept().keySet()));
        Map<String, Object> kept = new LinkedHashMap<>(p.plan().kept().get("ab"));
        assertTrue(kept.remove("next_step") instanceof Map, "what the next step knows of the service, beside the libraries: " + kept.keySet());
        // how its claims are judged: the default margin, and --forks auto's looks at 97.5% each
        assertEquals(Map.of("margin", 0.05, "level", 0.975), kept.remove("judge"));
        kept.remove(NoiseFloorLine.KEY); // this machine's noise floor, when ./vtlab ab --aa measured one here
        assertEquals(ServiceLibraries.scan(Path.of(SPRING_JAR).toAbsolutePath().normalize()).asMap(), kept);
    }

    @Test
    void theVerdictNamesTheJdksExactUpdateAndItsKnownIssues() throws Exception {
        Map<String, String> on25 = new LinkedHashMap<>(row("virtual", "as-shipped", 200, 3900, 60, "ok", ""));
        on25.put("jdk", "25");
        List<Map<String, String>> rows = List.of(row("platform", "as-shipped", 200, 3900, 60, "ok", ""), on25);
        vtlab.data.RunKept.planned(Map.of(), List.of(new vtlab.tier.tool.Jdk(Path.of("/j25"), 25, "25.0.3", "Eclipse Adoptium"),
                new vtlab.tier.tool.Jdk(Path.of("/j21"), 21, "21.0.9", "x"))).write(new vtlab.data.RunDir(dir));
        Map<Integer, String> versions = AbKept.read(dir).jdks();
        assertEquals(Map.of(25, "25.0.3", 21, "21.0.9"), versions);
        List<String> v = Verdict.of(vtlab.data.DataRow.numbered(rows), dir.resolve("none.txt"), null, versions);
        assertTrue(v.contains("jdk 21.0.9: no known JDK issue for virtual threads in its release"), v.toString());
        String jdk25 = v.stream().filter(l -> l.startsWith("jdk 25.0.3: AFFECTED — JDK-8373120: ")).findFirst()
                .orElseThrow(() -> new AssertionError(v.toString()));
        assertTrue(jdk25.contains("fixed in 25.0.4"), jdk25);
        assertTrue(Verdict.of(vtlab.data.DataRow.numbered(rows), dir.resolve("none.txt"), null).stream().noneMatch(l -> l.startsWith("jdk ")),
                "without the kept versions no update is guessed");
        assertEquals(Map.of(), AbKept.read(dir.resolve("nosuch")).jdks());
    }

    @Test
    void theProfileIsOnByDefaultAndMinusProfileTakesItAway() throws Exception {
        assertTrue(probesOf().containsAll(List.of("profile", vtlab.probe.LiveSetProbe.NAME)), probesOf().toString());
        assertTrue(probesOf("--probes", "+nmt").containsAll(List.of("profile", "nmt")), probesOf("--probes", "+nmt").toString());
        List<String> without = probesOf("--probes", "-profile");
        assertFalse(without.contains("profile"), "--probes -profile opts out of profiling: " + without);
        List<String> defaults = new java.util.ArrayList<>(vtlab.probe.Probes.DEFAULT);
        defaults.add(vtlab.probe.LiveSetProbe.NAME); // ab's memory line compares live sets
        defaults.add(vtlab.probe.ServedProbe.NAME); // beside every set: what ran the requests
        defaults.add(vtlab.probe.ListenQueueProbe.NAME); // and the handshakes a full accept queue dropped
        assertEquals(defaults, without);
        assertEquals(List.of("cpu", vtlab.probe.ServedProbe.NAME, vtlab.probe.ListenQueueProbe.NAME), probesOf("--probes", "cpu"), "--probes a,b replaces the set");
        assertEquals(List.of(), probesOf("--no-probes"), "none at all");
    }

    /** The probes of the first planned row of an ab run with these options. */
    private static List<String> probesOf(String... extra) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of("run", "ab", "--app", SPRING_JAR, "--url", "/", "--port",
                Integer.toString(vtlab.proc.LoopbackPort.free())));
        args.addAll(List.of(extra));
        return vtlab.cli.RunCommand.prepare(vtlab.cli.Main.parse(args), List.of("ab")).plan().planned().getFirst().probes();
    }

    @Test
    void aCommandHasNoJarToRead() throws Exception {
        Options o = vtlab.cli.Main.parse(List.of("ab", "--cmd", "java -jar " + SERVLET_JAR, "--virtual-env", "A=1", "--url", "/"));
        Map<String, Object> kept = new AbExperiment().kept(o);
        java.util.Set<String> keys = new java.util.HashSet<>(kept.keySet());
        keys.remove(NoiseFloorLine.KEY); // this machine's noise floor, when ./vtlab ab --aa measured one here
        assertEquals(java.util.Set.of("next_step", "judge"), keys, "no jar to read, only what the next step knows of the command and how claims are judged");
        assertEquals("java -jar " + SERVLET_JAR, ((Map<?, ?>) kept.get("next_step")).get("command"));
        assertEquals(null, AbKept.read(dir).libraries(), "no kept.json, or one without ab's entry");
        assertTrue(Verdict.of(vtlab.data.DataRow.numbered(List.of(row("platform", "as-shipped", 200, 3900, 60, "ok", ""))), dir.resolve("none.txt"), null).stream()
                .noneMatch(l -> l.startsWith("librar")));
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
