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
 * the largest cause off the pool), the Spring rig with its one CPU full (no lever of the lab's answers: none is run,
 * and a lever the service never reads is not claimed as a gain), and a heap too small (the heap lever cuts GC's share).
 * Short rows: a few seconds of warm-up and hold each, one thread mode. Each control asserts the claim its rows allow
 * as the lab judges them ({@link Evidence}): the claim in full when they are evidence, the lab's narrower claim or its
 * refusal when some are flagged, never one wording of a lucky run.
 */
@org.junit.jupiter.api.extension.ExtendWith(SharedTiers.Resolver.class)
class NextStepIT {
    @TempDir
    Path out;

    record Ran(int exit, String console, long seconds, Path run, List<Map<String, String>> rows) {}

    /** ./vtlab ab ARGS into dir (a folder of its own per attempt): its exit, console, run folder and rows. */
    static Ran ab(Path dir, List<String> args) throws Exception {
        Files.createDirectories(dir);
        List<String> all = new ArrayList<>(List.of("ab", "--port", Integer.toString(Lab.freePort()), "--out", dir.toString()));
        all.addAll(args);
        Path console = Files.createTempFile(dir, "console", ".txt");
        long t0 = System.nanoTime();
        Process lab = Lab.cli(all).redirectErrorStream(true).redirectOutput(console.toFile()).start();
        assertTrue(lab.waitFor(420, TimeUnit.SECONDS), "ab finished: " + Files.readString(console));
        long s = (System.nanoTime() - t0) / 1_000_000_000;
        System.out.println("vtlab IT: NextStepIT ab took " + s + " s");
        String text = Files.readString(console);
        assertEquals(0, lab.exitValue(), text);
        Path run = Lab.onlyRun(dir);
        return new Ran(lab.exitValue(), text, s, run, Lab.rows(run));
    }

    /**
     * The lab's words for one variant in a next-step line: from "→ LABEL (rows …): " to the next "→" (or the end),
     * without the prefix: "+93% req/s (95% CI +80% to +106%), p99 −50%; the largest cause is now …".
     */
    static String variant(String line, String labelAndRows) {
        // "→ pool 20 (rows 4, 6" then, since the next step interleaves, ", against the base's forks beside them, rows 3, 5"
        String from = "→ " + labelAndRows.substring(0, labelAndRows.length() - 1);
        int i = line.indexOf(from);
        assertTrue(i >= 0, "no '" + from + "' in: " + line);
        int end = line.indexOf("): ", i + from.length());
        assertTrue(end >= 0 && (line.startsWith(")", i + from.length()) || line.startsWith(", against the base's forks beside them", i + from.length())),
                "no '" + from + ")' in: " + line);
        String rest = line.substring(end + 3);
        int next = rest.indexOf(" → ");
        return next < 0 ? rest : rest.substring(0, next);
    }

    /**
     * Whether the variant's words claim a gain: its throughput up, the interval when its reps give one, and nothing
     * before the cause's clause (after ";") that takes the claim back ("no gain shown", "not a gain", "not evidence",
     * "worse"). The p99's own change is read as the lab words it, whatever its interval ("(95% CI −84% to +1303%)",
     * "(95% CI unbounded)"): only the throughput's claim is asserted here.
     */
    static boolean gainShown(String words, boolean interval) {
        String claim = words.split(";", 2)[0];
        if (java.util.stream.Stream.of("no gain shown", "not a gain", "not evidence", "worse").anyMatch(claim::contains)) return false;
        return claim.matches("\\+\\d+% req/s" + (interval ? " \\(95% (CI \\+\\d+% to \\+\\d+%|set: at least \\+\\d+%)\\)" : "") + "(, p99 [+−]\\d+%.*)?");
    }

    /** The rows of each configuration in the order they ran: the A/B's first ("ab"), then each lever value ("pool:20"). */
    static Map<String, List<Map<String, String>>> byLever(List<Map<String, String>> rows) {
        Map<String, List<Map<String, String>>> out = new LinkedHashMap<>();
        for (Map<String, String> r : rows) {
            String lever = vtlab.data.DataRow.of(r).param("lever"), beside = vtlab.data.DataRow.of(r).param("beside");
            out.computeIfAbsent(beside != null ? "beside " + beside : lever == null ? "ab" : lever, k -> new ArrayList<>()).add(r);
        }
        return out;
    }

    /** The A/B's own rows: neither a variant's nor a baseline fork run beside one. */
    static List<Integer> abRows(Evidence e) {
        return e.withParam("lever", null).stream().filter(n -> e.row(n).param("beside") == null).toList();
    }

    /** What the lab judges a lever value against: the baseline forks run beside it (interleaved), else the A/B's rows. */
    static List<Integer> baseOf(Evidence e, String lever) {
        List<Integer> beside = e.withParam("beside", lever);
        return beside.isEmpty() ? abRows(e) : beside;
    }

    /**
     * The rows of those given that were broken down (time_top_cause): a later fork has no profiled hold of its own once
     * an ok fork of its configuration was explained (ExplainPhase.explainsAgain), and the lab reads the cause from these.
     */
    static List<Integer> explained(Evidence e, List<Integer> rows) {
        return rows.stream().filter(n -> !e.row(n).text(vtlab.data.Columns.TIME_TOP).isBlank()).toList();
    }

    static String causes(List<Map<String, String>> rows) {
        return rows.stream().map(r -> r.get("time_top_cause") + " " + r.get("time_" + r.get("time_top_cause") + "_pct") + "% "
                + r.get("throughput_rps") + " req/s " + r.get("status") + " " + r.get("flags")).toList().toString();
    }

    static String sha256(Path f) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f)));
    }

    /**
     * The seeds' story, one step on: virtual threads at 28 connections, each request holding one of 10 pooled
     * connections across a short downstream call, wait mostly for the pool (18 of the 28 queue for it). The next step
     * doubles it (then, while that gains with the pool still the largest cause, would size it for what the load asked
     * for): at 28 connections the doubled pool leaves 8 queued, and the downstream call, not the pool, is the largest
     * cause, so the step ends there. At 200 connections the doubled pool still queued 180, and the next step went on to
     * pool 200, two rows more whose 200 PostgreSQL connections took 11.5 s to open at each start. Judged as the lab judges its
     * rows ({@link Evidence}): with the A/B's rows and the doubled pool's ok, the throughput grows by 1.5x or more, the
     * largest cause (matrix.csv's time_top_cause) leaves the pool, and the judge's typed claim in findings.json is
     * better, its estimate 1.5x or more. When a row the claim needs is not evidence, or the judge leaves it
     * undetermined, the lab runs once more, and then the control is skipped with why: never passed on the lab's
     * refusal. In findings, summary.txt and at the top of report.html; the jar is not touched.
     */
    @Test
    void thePoolLeverBuysThroughputAndMovesTheCauseOffThePool(SharedTiers shared) throws Exception {
        String before = sha256(AbIT.SPRING_JAR);
        List<String> args = new ArrayList<>(List.of("--app", AbIT.SPRING_JAR.toString(), "--aot-cache", "--url", "/api/order-summary/random",
                "--modes", "virtual", "--variants", "as-shipped", "--conc", Integer.toString(POOL_CONC), "--reps", "3",
                // three forks a side: with two, Welch's degrees of freedom (rounded down, docs/ab.md) are 1 and a 1.9x gain
                // came out "0.98-4.40x, undetermined" twice in a fresh clone; three leave 2 or more
                // warmed until steady: after a fixed 3 s each configuration's first rep ran on a cold JIT (203 and 357
                // req/s; docs/ab.md), two reps left an interval wider than a doubling, and a control that must show its
                // gain could not. C1 only: C2 on the service's one core never settled within 12 s (every row flagged
                // warmup-not-steady, 184 s for the six rows), C1 settles in a few seconds; the pool, not the code's speed,
                // is the wall this control is about. At most 6 s: the fresh clones' rows were no steadier after 8 s
                "--warmup", "3s", "--warmup-max", "6s", "--hold", "5s", "--jvm-args", "-XX:TieredStopAtLevel=1", "--next-step",
                "--env", "CONN_MODE=held", "--env", "HIKARI_MAX_POOL=10", "--env", "DOWNSTREAM_DELAY_MS=" + DOWNSTREAM_MS));
        shared.pg().sutEnv().forEach((k, v) -> args.addAll(List.of("--env", k + "=" + v)));
        shared.stub().sutEnv().forEach((k, v) -> args.addAll(List.of("--env", k + "=" + v)));
        Ran r = Evidence.rerunOnce("pool control", n -> ab(out.resolve("attempt-" + n), args), NextStepIT::poolClaim);
        Path run = r.run();
        List<Map<String, String>> rows = r.rows();
        Evidence e = Evidence.of(rows);
        Evidence.Judged claim = poolClaim(r);
        String claimed = claim.parts().getLast().name(); // the pool value whose gain the lab can claim: pool:20, or the next one
        Map<String, List<Map<String, String>>> by = byLever(rows);
        System.out.println("vtlab IT: pool control: " + claim + " " + by.keySet() + " " + by.values().stream().map(NextStepIT::causes).toList());
        List<Integer> base = abRows(e), doubled = e.withParam("lever", "pool:20");
        assertEquals(3, base.size(), rows.toString());
        assertEquals(3, doubled.size(), "the pool doubled, three reps: " + by.keySet());
        for (int n : doubled) {
            assertFalse(e.row(n).failed(), e.row(n).toString());
            assertTrue(Files.readString(run.resolve("raw").resolve(e.row(n).cell("sut_log"))).contains("--spring.datasource.hikari.maximum-pool-size=20"));
        }
        String line = vtlabFinding(run, "next step, /api/order-summary/random at " + POOL_CONC + " connections, virtual as shipped");
        System.out.println("vtlab IT: pool control: " + line);
        String words = variant(line, claimed.replace(":", " ") + " (" + Evidence.rowsOf(claim.parts().getLast().rows()) + ")");
        // rerunOnce gave rows on which the claim stands (else the test was skipped): every A/B row and the pool's ok
        assertEquals(Evidence.Call.CLAIM, claim.call(), claim.toString());
        // the premise, on the rows the lab read the cause from (one ok fork's profiled hold explains its configuration)
        assertFalse(explained(e, e.ok(base)).isEmpty(), "an ok A/B row was broken down: " + causes(by.get("ab")));
        for (int n : explained(e, e.ok(base))) assertEquals("pool_wait", e.row(n).text(vtlab.data.Columns.TIME_TOP), "the control's premise: " + e.row(n));
        // the claim: the judge's, typed in findings.json, from the two ok forks a side: the whole set above 1 and the
        // estimate at least 1.5x (poolClaim skipped the test when the judge left it undetermined)
        Map<String, Object> gain = poolGain(run, claimed);
        assertEquals("better", Evidence.answer(gain), "the pool buys throughput: " + gain);
        assertEquals(List.of(3, 3), java.util.Arrays.stream(Evidence.forks(gain)).boxed().toList(), "three ok forks a side: " + gain);
        assertTrue(((Number) gain.get("estimate")).doubleValue() >= 1.5, "the pool must buy 1.5x: " + gain);
        assertTrue(gainShown(words, true), claimed + "'s gain is said with its 95% interval: " + words);
        // the cause leaves the pool: in the rows of the pool as far as the next step took it that are evidence
        String lastLever = by.keySet().stream().filter(k -> k.startsWith("pool:")).reduce((a, b) -> b).orElseThrow();
        for (int n : explained(e, e.ok(e.withParam("lever", lastLever)))) {
            assertNotEquals("pool_wait", e.row(n).text(vtlab.data.Columns.TIME_TOP), "the cause leaves the pool: " + e.row(n));
        }
        assertTrue(line.contains(" (" + Evidence.rowsOf(base) + "):") && !line.contains("(from flagged rows"),
                "the lab's base is the A/B's rows, " + Evidence.rowsOf(base) + ": " + line);
        assertTrue(Files.readString(run.resolve("summary.txt")).contains("→ pool 20 (" + Evidence.rowsOf(doubled) + ", against the base's forks beside them, "));
        String report = Files.readString(run.resolve("report.html"));
        assertTrue(report.contains("→ pool 20") && report.indexOf("→ pool 20") < report.indexOf("id=\"row-1\""), "the verdict at the top of the report");
        assertTrue(report.contains("href=\"#row-" + doubled.getLast() + "\""), "its claim links its rows");
        // the jar ships HikariCP 7.0.2, whose known spin bears on the pool's waits: its fixed release is tried too, from
        // Maven Central in an extracted copy, judged against forks beside it like any lever
        List<Integer> library = e.withParam("lever", "library:com.zaxxer:HikariCP:7.1.0");
        assertEquals(3, library.size(), "HikariCP 7.1.0, three forks: " + by.keySet());
        for (int n : library) {
            assertFalse(e.row(n).failed(), e.row(n).toString());
            assertTrue(e.row(n).text(vtlab.data.Columns.STACK).endsWith("-extracted-HikariCP-7.1.0"), e.row(n).toString());
        }
        assertTrue(variant(line, "HikariCP 7.1.0 (" + Evidence.rowsOf(library) + ")").contains("req/s"),
                "the library lever is judged: " + line);
        assertEquals(before, sha256(AbIT.SPRING_JAR), "nothing in the user's jar changes");
    }

    /**
     * The pool control's claim: the A/B's three reps against a pool value's three reps, every rep ok on both sides (an
     * interval needs two forks a side: one ok A/B row claims nothing), the first value the lab ran so; else the doubled
     * pool's refusal. On ok rows, the judge's claim must be decided: an undetermined set is a claim missing, run once more, then skipped; a decided one is asserted.
     */
    static Evidence.Judged poolClaim(Ran r) {
        Evidence e = Evidence.of(r.rows());
        // each pool value against the baseline forks run beside it (the base the next step judges it on)
        List<Evidence.Judged> each = byLever(r.rows()).keySet().stream().filter(k -> k.startsWith("pool:"))
                .map(k -> e.judge(Evidence.Part.base("ab", baseOf(e, k)), Evidence.Part.variant(k, e.withParam("lever", k)))).toList();
        Evidence.Judged j = each.stream().filter(x -> x.call() == Evidence.Call.CLAIM).findFirst()
                .orElseGet(() -> e.judge(Evidence.Part.base("ab", baseOf(e, "pool:20")), Evidence.Part.variant("pool:20", e.withParam("lever", "pool:20"))));
        if (j.call() != Evidence.Call.CLAIM) return j;
        // the premise (the pool the largest cause) and the verdict's header are read from the A/B's rows: those must be evidence too
        if (e.ok(abRows(e)).size() != abRows(e).size()) return Evidence.undetermined(j, "an A/B row is not evidence: " + Evidence.rowsOf(abRows(e)));
        try {
            Map<String, Object> gain = poolGain(r.run(), j.parts().getLast().name());
            if (gain == null) return Evidence.undetermined(j, "no claim of the judge's for " + j.parts().getLast().name() + " in findings.json");
            if (Evidence.answer(gain).equals("undetermined")) return Evidence.undetermined(j, "the judge: " + gain.get("words"));
            return j;
        } catch (java.io.IOException x) {
            throw new java.io.UncheckedIOException(x);
        }
    }

    /** The judge's typed throughput claim of a pool value ("pool:20") against the baseline forks beside it, from findings.json. */
    static Map<String, Object> poolGain(Path run, String lever) throws java.io.IOException {
        return Evidence.claim(run, lever.replace(":", " ") + " / virtual as shipped req/s");
    }

    /**
     * The stub's delay per call, ms: each request holds its connection across it, so the pool of 10 is the wall (about
     * 10 / (delay + query) req/s) and doubling it doubles that; the pool the load asks for (every request in flight)
     * leaves the SUT's one CPU or the tiers' as the wall.
     */
    static final int DOWNSTREAM_MS = 20;

    /** The pool control's connections: more than twice the pool of 10, fewer than the doubled pool's 20 plus a few. */
    static final int POOL_CONC = 28;

    /**
     * One CPU full: the Spring rig's /cpu?ms=1 (1 ms computed in the controller: no sleep, no query, no call) at 8
     * connections on platform threads (fewer than Tomcat's 10 spare threads: none waits for a thread, none takes a
     * pooled connection), its one core full of the service's own work. Not 200 connections: fewer request threads
     * were seen than connections, and the breakdown gave a row's unseen time to waiting for a thread (run 3). Not /sleep?ms=0: with the core full,
     * Thread.sleep(0) waits to run again inside JFR's sleep event, and the breakdown named half of request time sleep;
     * nor /api/runtime-info, which asks the stub what it negotiated (downstream). A Spring Boot jar, so every lever of the lab's is asked whether it fits (the pool, the threads, the
     * launch, the heap, the JDK): none answers a full CPU, so none is run (the launch only if the rows' execution
     * samples name Spring Boot's nested-jar loader the CPU's largest owner: then it fits, by the rows), and the verdict
     * names what would help instead. A lever of the user's that the service never reads (an environment variable) is
     * run when asked and is not claimed as a gain: the judge's typed claim from its ok forks is anything but better; rows
     * that are not evidence run the lab once more, then skip the control.
     */
    @Test
    void aFullCpuHasNoLeverAndALeverThatDoesNothingIsNoGain(SharedTiers shared) throws Exception {
        List<String> args = new ArrayList<>(List.of("--app", AbIT.SPRING_JAR.toString(), "--aot-cache", "--url", "/cpu?ms=1", "--modes", "platform",
                "--conc", "8", "--reps", "2", "--warmup", "3s", "--warmup-max", "0s", "--hold", "3s", "--next-step",
                "--lever", "NOT_READ_BY_THE_SERVICE=1"));
        shared.pg().sutEnv().forEach((k, v) -> args.addAll(List.of("--env", k + "=" + v))); // the service's database, as AbIT passes it
        // the claim (no gain) rests on the A/B's ok rows and every row of the user's lever: run once more when they are
        // not evidence, then skip: a lever whose rows were all flagged claims nothing, and "not evidence" is no control
        Ran r = Evidence.rerunOnce("no-lever control", n -> ab(out.resolve("attempt-" + n), args), NextStepIT::userLeverClaim);
        Path run = r.run();
        Evidence e = Evidence.of(r.rows());
        Map<String, List<Map<String, String>>> by = byLever(r.rows());
        List<Integer> base = baseOf(e, "NOT_READ_BY_THE_SERVICE:1"), user = e.withParam("lever", "NOT_READ_BY_THE_SERVICE:1");
        System.out.println("vtlab IT: no-lever control: " + e.judge(Evidence.Part.base("ab", base), Evidence.Part.variant("user", user)) + " "
                + by.keySet() + " " + by.values().stream().map(NextStepIT::causes).toList());
        // the premise, on the rows the lab read the cause from (its ok ones, else all): the SUT's core full in each, and
        // the cause the lab read from them (most rows', the first's on a tie) the CPU or its queue
        // (a later fork has no breakdown of its own once an ok fork explained the configuration)
        List<Integer> ab = abRows(e), okRead = explained(e, e.ok(ab).isEmpty() ? ab : e.ok(ab)), read = okRead.isEmpty() ? explained(e, ab) : okRead;
        assertFalse(read.isEmpty(), "an A/B row was broken down: " + causes(by.get("ab")));
        for (int n : read) {
            assertTrue(Math.max(e.row(n).num("time_sut_cpu_pct"), e.row(n).num("time_sut_cores_busy_pct")) >= 90, "the control's premise, a full CPU: " + e.row(n));
        }
        String top = read.stream().map(n -> e.row(n).text(vtlab.data.Columns.TIME_TOP)).collect(java.util.stream.Collectors.groupingBy(t -> t,
                LinkedHashMap::new, java.util.stream.Collectors.counting())).entrySet().stream().reduce((a, b) -> b.getValue() > a.getValue() ? b : a)
                .orElseThrow().getKey();
        assertTrue(List.of("cpu", "runqueue").contains(top), "the control's premise, the CPU named: " + top + " of " + causes(by.get("ab")));
        List<String> lab = by.keySet().stream().filter(k -> !k.equals("ab") && !k.startsWith("beside ") && !k.startsWith("NOT_READ_BY_THE_SERVICE:")).toList();
        for (String lever : lab) {
            // the one lab lever a full CPU can fit: the launch, where the loader is the CPU's largest owner in the rows read
            assertTrue(lever.startsWith("launch:") && read.stream().anyMatch(n -> e.row(n).text(vtlab.data.Columns.TIME_CPU_OWNERS).startsWith("Spring Boot's nested-jar loader")),
                    "no lab lever answers a full CPU (" + lever + " was run): " + read.stream().map(n -> e.row(n).text(vtlab.data.Columns.TIME_CPU_OWNERS)).toList());
        }
        assertTrue(by.containsKey("NOT_READ_BY_THE_SERVICE:1"), "the user's lever is run when asked: " + by.keySet());
        String line = vtlabFinding(run, "next step, /cpu?ms=1 at 8 connections, platform");
        System.out.println("vtlab IT: no-lever control: " + line);
        String words = variant(line, "NOT_READ_BY_THE_SERVICE=1 (" + Evidence.rowsOf(user) + ")");
        assertFalse(gainShown(words, false) || gainShown(words, true), "a lever that does nothing is not claimed as a gain: " + words);
        // the judge's typed claim from the ok forks, two a side: anything but better
        Map<String, Object> claim = Evidence.claim(run, "NOT_READ_BY_THE_SERVICE=1 / platform req/s");
        assertTrue(claim != null, "the judge's claim of the user's lever in findings.json: " + Evidence.claims(run));
        assertEquals(List.of(e.ok(base).size(), user.size()), java.util.Arrays.stream(Evidence.forks(claim)).boxed().toList(), claim.toString());
        assertNotEquals("better", Evidence.answer(claim), "a lever the service never reads buys nothing: " + claim);
        if (lab.isEmpty()) assertTrue(line.contains("no lever of the lab's answers it") && line.contains("what would help"), line);
    }

    /**
     * A heap too small for the allocation rate (the servlet's alloc workload, 256 KB a request into an 8 MB ring, on an
     * 80 MB heap): GC is the largest cause (matrix.csv's time_top_cause), the heap lever is the one tried, and the heap
     * as far as the next step took it must cut GC's share of request time by 40% or more and leave GC no longer the
     * largest cause. Not 40 MB (ProfileControlIT's GC control): GC's share went 99% (40 MB), 81% (80 MB), 34% (160 MB),
     * so the next step ran three heaps where from 80 MB one doubling moves the cause. One rep: the claim is a share, measured in each row; it rests
     * on the A/B's row and the last heap's, so the lab runs once more when either is not evidence, and after that the
     * control is skipped with why (the claim is missing), never passed on the lab's refusal.
     */
    @Test
    void theHeapLeverCutsGcsShareOnAHeapTooSmall() throws Exception {
        List<String> args = new ArrayList<>(List.of("--cmd", "java -jar " + AbIT.SERVLET_JAR, "--platform-env", "THREAD_MODE=platform",
                "--virtual-env", "THREAD_MODE=virtual", "--url", "/alloc?kb=256", "--modes", "platform", "--conc", "4", "--reps", "1",
                "--warmup", "3s", "--warmup-max", "0s", "--hold", "5s", "--jvm-args", "-Xms80m -Xmx80m", "--next-step"));
        Ran r = Evidence.rerunOnce("heap control", n -> ab(out.resolve("attempt-" + n), args), NextStepIT::heapClaim);
        Path run = r.run();
        Evidence e = Evidence.of(r.rows());
        Evidence.Judged claim = heapClaim(r);
        Map<String, List<Map<String, String>>> by = byLever(r.rows());
        System.out.println("vtlab IT: heap control: " + claim + " " + by.keySet() + " " + by.values().stream().map(NextStepIT::causes).toList()
                + " gc% " + by.values().stream().map(l -> l.getFirst().get("time_gc_pct")).toList());
        List<Integer> doubled = e.withParam("lever", "heap:160m");
        assertEquals(1, doubled.size(), "the heap doubled: " + by.keySet());
        assertTrue(Files.readString(run.resolve("raw").resolve(e.row(doubled.getFirst()).cell("sut_log"))).contains("-Xmx160m"));
        String line = vtlabFinding(run, "next step, /alloc?kb=256 at 4 connections, platform");
        System.out.println("vtlab IT: heap control: " + line);
        String words = variant(line, "heap 160m (" + Evidence.rowsOf(doubled) + ")");
        // rerunOnce gave rows on which the claim stands (else the test was skipped): the A/B's row and the last heap's ok
        assertEquals(Evidence.Call.CLAIM, claim.call(), claim.toString());
        Map<String, String> base = e.row(abRows(e).getFirst()).cells();
        assertEquals("gc", base.get("time_top_cause"), "the control's premise: " + causes(by.get("ab")));
        // the heap as far as the next step took it (doubled; four times while GC stayed the largest cause)
        Map<String, String> last = new ArrayList<>(by.values()).getLast().getFirst();
        double before = Lab.num(base, "time_gc_pct"), after = Lab.num(last, "time_gc_pct");
        assertTrue(after <= 0.6 * before && !"gc".equals(last.get("time_top_cause")),
                "the heap lever cuts GC's share and GC is no longer the largest cause: " + before + "% -> " + after + "% (" + causes(List.of(last)) + ")");
        assertFalse(words.contains("not evidence"), "ok rows are evidence: " + words);
    }

    /** The no-lever control's claim: the A/B's ok rows (a base) against every rep of the user's lever (a variant). */
    static Evidence.Judged userLeverClaim(Ran r) {
        Evidence e = Evidence.of(r.rows());
        return e.judge(Evidence.Part.base("ab", baseOf(e, "NOT_READ_BY_THE_SERVICE:1")), Evidence.Part.variant("user", e.withParam("lever", "NOT_READ_BY_THE_SERVICE:1")));
    }

    /** The heap control's claim: the A/B's row against the last heap the next step ran (each one rep). */
    static Evidence.Judged heapClaim(Ran r) {
        Evidence e = Evidence.of(r.rows());
        Map<String, List<Map<String, String>>> by = byLever(r.rows());
        String last = new ArrayList<>(by.keySet()).getLast();
        return e.judge(Evidence.Part.base("ab", last.equals("ab") ? abRows(e) : baseOf(e, last)),
                Evidence.Part.variant(last, last.equals("ab") ? List.of() : e.withParam("lever", last)));
    }

    static String vtlabFinding(Path run, String prefix) throws Exception {
        List<String> all = vtlab.data.Findings.read(run).of("ab").lines();
        return all.stream().filter(l -> l.startsWith(prefix)).findFirst().orElseThrow(() -> new AssertionError("no line " + prefix + " in " + all));
    }
}
