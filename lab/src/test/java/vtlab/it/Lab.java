package vtlab.it;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import vtlab.data.Dataset;

/** Helpers for the end-to-end tests: the repo, a free port, the lab as a child process, a run's rows. */
final class Lab {
    private Lab() {}

    static Path home() {
        return Path.of(System.getProperty("vtlab.home")).toAbsolutePath();
    }

    /**
     * A test's watcher (pause or kill the SUT once it is under load) on a thread of its own: a loop that blocks on the
     * common pool, whose one worker on 2 CPUs it holds, starved the lab's async work in the same JVM for 20 minutes.
     */
    static <T> java.util.concurrent.Future<T> watcher(String name, java.util.concurrent.Callable<T> task) {
        java.util.concurrent.FutureTask<T> f = new java.util.concurrent.FutureTask<>(task);
        Thread.ofPlatform().daemon().name(name).start(f);
        return f;
    }

    static int freePort() throws IOException {
        // never the same port twice in one JVM: a test that starts several servers together asks for each port before
        // any binds it, and the kernel may hand a just-closed port out again (SpringMvcIT's four SUTs once got one port
        // for two, and the checks of one combination read the other's server)
        for (int attempt = 0; attempt < 100; attempt++) {
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                if (GIVEN.add(s.getLocalPort())) return s.getLocalPort();
            }
        }
        throw new IOException("no loopback port free that this JVM has not handed out already");
    }

    private static final java.util.Set<Integer> GIVEN = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** The packaged lab as its own JVM, as ./vtlab starts it. */
    static ProcessBuilder cli(List<String> args) {
        Path target = home().resolve("lab/target");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-exports=jdk.attach/sun.tools.attach=ALL-UNNAMED", "-Dvtlab.home=" + home(), "-Dvtlab.java=" + System.getProperty("java.home"),
                "-cp", target.resolve("vtlab-lab.jar") + ":" + target.resolve("lib") + "/*", "vtlab.cli.Main"));
        cmd.addAll(args);
        return new ProcessBuilder(cmd);
    }

    /**
     * vegeta's own record of every request of a load (raw/STEM.vegeta.N.bin, each attacker's), as the real vegeta
     * encodes it (`vegeta encode --to json`): one JSON object a request, with its status (code), latency (ns) and error.
     */
    static List<com.fasterxml.jackson.databind.JsonNode> vegetaResults(Path raw, String stem) throws Exception {
        Path vegeta = vtlab.tier.tool.Tools.VEGETA.find().orElseThrow(() -> new AssertionError("vegeta is not installed"));
        List<Path> bins;
        try (var s = Files.list(raw)) {
            bins = s.filter(p -> p.getFileName().toString().matches(java.util.regex.Pattern.quote(stem) + "\\.vegeta\\.\\d+\\.bin")).sorted().toList();
        }
        if (bins.isEmpty()) throw new AssertionError("no vegeta results " + stem + ".vegeta.N.bin in " + raw);
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        List<com.fasterxml.jackson.databind.JsonNode> out = new ArrayList<>();
        for (Path bin : bins) {
            Process p = new ProcessBuilder(vegeta.toString(), "encode", "--to", "json", bin.toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            for (String line : new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines().toList()) {
                if (!line.isBlank()) out.add(json.readTree(line));
            }
            if (p.waitFor() != 0) throw new AssertionError("vegeta encode " + bin + " exited with " + p.exitValue());
        }
        return out;
    }

    static Path onlyRun(Path out) throws IOException {
        try (var s = Files.list(out)) {
            return s.filter(p -> !p.getFileName().toString().equals("latest") && Files.isDirectory(p)).findFirst().orElseThrow();
        }
    }

    static List<Map<String, String>> rows(Path run) throws IOException {
        Path m = run.resolve("matrix.csv");
        List<Map<String, String>> rows = Files.exists(m) ? Dataset.read(m) : List.of();
        // where each row's wall time went, in the test's output: what the suite's time is made of
        // with how the SUT was launched (a Spring start from its AOT cache or not) and what else ran beside the hold
        rows.forEach(r -> System.out.println("vtlab IT phases: " + describe(r) + ": " + r.get("row_s") + " s: " + r.get("row_phases_s")
                + " | launch " + r.get("sut_launch") + "; others " + r.get("others_cpu_pct") + "% and background " + r.get("background_cpu_pct") + "% of a core"));
        return rows;
    }

    /** A run the test asserts a claim on, and whether its rows are valid evidence for it. */
    interface Attempt<T> {
        T run() throws Exception;
    }

    /**
     * Runs it once more when the machine's noise flagged the rows the claim rests on (status not ok), then gives the
     * second run as it is: the test asserts on it at the lab's own thresholds and fails if it is still not valid.
     */
    static <T> T validOrRetriedOnce(Attempt<T> attempt, java.util.function.Predicate<T> valid) throws Exception {
        T first = attempt.run();
        if (valid.test(first)) return first;
        System.err.println("vtlab IT: rows flagged by the machine's noise; running once more");
        return attempt.run();
    }

    /** A run of the lab: its exit code (0 when run through the runner without the CLI), what it printed, its run folder and rows. */
    record LabRun(int code, String console, Path run, List<Map<String, String>> rows) {}

    /** One attempt of a run, into its own folder. */
    interface RunInto {
        LabRun run(Path dir) throws Exception;
    }

    /**
     * {@link #validOrRetriedOnce} for a run of the lab: each attempt into its own folder under out ({@code attempt-1},
     * {@code attempt-2}).
     */
    static LabRun retriedOnce(Path out, java.util.function.Predicate<LabRun> valid, RunInto attempt) throws Exception {
        int[] n = {0};
        // say why it runs again: the rows the lab did not take as evidence, with the flags that voided them
        java.util.function.Predicate<LabRun> said = t -> {
            boolean ok = valid.test(t);
            if (!ok) {
                Evidence e = Evidence.of(t.rows());
                String why = e.why(e.all());
                System.err.println("vtlab IT: attempt " + n[0] + " (" + t.run().getFileName() + "): exit " + t.code() + "; "
                        + (why.isEmpty() ? "the rows are evidence, but not what the test's claim needs" : why));
            }
            return ok;
        };
        return validOrRetriedOnce(() -> attempt.run(Files.createDirectories(out.resolve("attempt-" + ++n[0]))), said);
    }

    /** Flags that say the machine, not the service, voided a row: another process's CPU, the hypervisor's steal. */
    static final List<String> MACHINE_FLAGS = List.of("busy-machine", "stolen-cpu");

    /**
     * After its rerun, a test whose rows the machine voided (a build beside it, a hypervisor taking the CPU) has no
     * rows to assert on: skipped with why, never failed on the service's account nor passed.
     */
    static void skipIfTheMachineVoided(String test, LabRun r) {
        List<String> voided = r.rows().stream().filter(row -> !"ok".equals(row.get("status")))
                .filter(row -> MACHINE_FLAGS.stream().anyMatch(f -> java.util.Arrays.asList(row.getOrDefault("flags", "").split(";")).contains(f)))
                .map(row -> row.get("thread_mode") + " " + row.get("flags") + " (others " + row.get("others_cpu_pct") + "%, steal " + row.get("steal_cpu_pct") + "% of a core)")
                .toList();
        if (!voided.isEmpty()) throw Evidence.skip(test, "the machine voided its rows twice: " + voided);
    }

    /** ./vtlab ARGS through the CLI's Main in this JVM, on a free port, into dir. */
    static LabRun runMain(Path dir, List<String> args) throws Exception {
        List<String> all = new ArrayList<>(args);
        all.addAll(List.of("--port", Integer.toString(freePort()), "--out", dir.toString()));
        java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
        int code = vtlab.cli.Main.run(all, new java.io.PrintStream(buf, true));
        Path run = onlyRun(dir);
        return new LabRun(code, buf.toString(), run, rows(run));
    }

    /**
     * ./vtlab run EXPERIMENT ARGS (args from "run" on) planned by the CLI and run by the runner in this JVM, on a free
     * port, into dir: its tiers' state (PostgreSQL's cluster) under state, seeded small, with this JVM's JDK; then
     * the findings, summary and report written as the CLI writes them.
     */
    static LabRun runInProcess(Path state, Path dir, List<String> args) throws Exception {
        List<String> all = new ArrayList<>(args);
        all.addAll(List.of("--port", Integer.toString(freePort()), "--out", dir.toString()));
        vtlab.core.Options o = vtlab.cli.Main.parse(all);
        vtlab.cli.RunCommand.Prepared p = vtlab.cli.RunCommand.prepare(o, List.of(all.get(1)));
        vtlab.planning.RunPlan plan = p.plan();
        vtlab.data.Environment env = new vtlab.data.Environment(all, o.asMap(), p.cores(), List.of(vtlab.tier.tool.Jdk.current()),
                p.generator().name(), p.generator().version(), plan.probes(), plan.rows().size());
        java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
        vtlab.run.Runner.Outcome done = new vtlab.run.Runner(new java.io.PrintStream(buf, true)).run(vtlab.run.Runner.Config.builder()
                .rows(plan.planned()).studies(plan.studies(), plan.studySeconds()).generator(p.generator()).cores(p.cores()).port(plan.port())
                .folders(plan.results(), state).tierOptions(SharedTiers.SMALL_SEED).environment(env).experiments(plan.experiments()).kept(plan.kept()).plan(plan.ctx())
                .build());
        vtlab.cli.RunCommand.writeResults(done, plan.experiments(), new java.io.PrintStream(buf, true));
        Path run = onlyRun(dir);
        return new LabRun(0, buf.toString(), run, rows(run));
    }

    /** Every row is valid evidence (status ok). */
    static boolean allOk(List<Map<String, String>> rows) {
        return !rows.isEmpty() && rows.stream().allMatch(r -> "ok".equals(r.get("status")));
    }

    /** The columns that say which row it is and how it ended, in a message (those the row has). */
    static final List<String> WHICH = List.of("experiment", "scenario", "thread_mode", "mode", "benchmark", "threads", "jdk", "concurrency",
            "target_rps", "fault", "status", "flags", "note");

    /** Which row this is and how it ended: its scenario, mode, status and note (whichever of them it has). */
    static String describe(Map<String, String> row) {
        List<String> parts = new ArrayList<>();
        for (String k : WHICH) {
            String v = row.get(k);
            if (v != null && !v.isBlank()) parts.add(k + "=" + v);
        }
        return parts.isEmpty() ? row.toString() : String.join(", ", parts);
    }

    /**
     * A number the row must have produced. A row that produced none (an empty cell: no recovery within the hold, a
     * probe that failed) or something else fails the test naming the column, the row and the reason, never with a
     * parse error.
     */
    static double num(Map<String, String> row, String col) {
        String v = cell(row, col);
        try {
            return Double.parseDouble(v.strip());
        } catch (NumberFormatException e) {
            return fail(col + ": not a number: '" + v + "' | row: " + describe(row));
        }
    }

    /** A whole number the row must have produced (a count): as {@link #num}, and not a fraction. */
    static long whole(Map<String, String> row, String col) {
        String v = cell(row, col);
        try {
            return Long.parseLong(v.strip());
        } catch (NumberFormatException e) {
            return fail(col + ": not a whole number: '" + v + "' | row: " + describe(row));
        }
    }

    /** A cell the row must have filled: fails naming the column, the row and why when it is missing or empty. */
    static String cell(Map<String, String> row, String col) {
        String v = row.get(col);
        if (v == null) return fail(col + ": no such column | row: " + describe(row));
        if (v.isBlank()) return fail(col + ": empty: the row produced no value | row: " + describe(row));
        return v;
    }

    private static <T> T fail(String message) {
        return org.junit.jupiter.api.Assertions.fail(message);
    }
}
