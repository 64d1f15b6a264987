package vtlab.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.data.Environment;
import vtlab.data.RunDir;
import vtlab.load.Generator;
import vtlab.load.Generators;
import vtlab.tier.OsPackages;
import vtlab.plan.Experiment;
import vtlab.experiment.Experiments;
import vtlab.plan.PlanContext;
import vtlab.plan.PlannedRow;
import vtlab.plan.Row;
import vtlab.plan.RowCheck;
import vtlab.plan.Study;
import vtlab.probe.Probe;
import vtlab.probe.Probes;
import vtlab.run.Runner;
import vtlab.stack.Stack;
import vtlab.tier.CoreMap;
import vtlab.tier.Jdk;

/** vtlab's command line: run, list, doctor, help. Bad input: one line on stderr and exit code 2. */
public final class Main {
    static final String HELP = """
            vtlab: what flipping a Java service from a platform-thread pool to virtual threads does, measured here.

            Usage:
              ./vtlab run [EXPERIMENT...] [options]   run experiments (no name: a ~3 minute servlet sleep demo)
              ./vtlab list                            experiments with their axes and defaults, stacks, probes
              ./vtlab list columns                    every matrix.csv column with its unit and meaning
              ./vtlab doctor                          what the lab found: JDKs, generator, CPUs, limits
              ./vtlab dump [PID]                      JSON thread dump of a running SUT (virtual threads included),
                                                      summarised: virtual threads by state, top stacks
              ./vtlab report RUN_DIR                  (re)write RUN_DIR/report.html and charts/ (also done after every run)
              ./vtlab compare RUN_A RUN_B [--out F]   the same rows of two runs side by side with deltas (+ compare.html)
              ./vtlab test                            the whole test suite (what CI runs)

            Run options (each experiment adds its own axes: see ./vtlab list):
              --modes platform,virtual   thread modes
              --conc 400,1000            concurrent connections (closed model: each sends its next request when
                                         the answer arrives)
              --reps N                   repetitions of each row       --warmup 10s  --hold 20s
              --warmup-max 120s          the warm-up goes on in 5 s slices after --warmup until two slices agree
                                         within 5% and the JIT used at most 2% of a core in both, at most
                                         this long (on a one-CPU SUT the JIT needs ~50 s for the hello servlet,
                                         over a minute for Spring); rows that never settle are flagged
                                         warmup-not-steady
              --quick                    short smoke profile (3 s warm-up, 5 s hold, 1 rep, no --warmup-max)
              --jdk PATH|MAJOR           JDK for the SUT, repeatable (default: the lab's JDK)
              --jvm-args "..."           SUT JVM options (default -Xms512m -Xmx512m)
              --carriers auto|N          virtual-thread carriers of the SUT (jdk.virtualThreadScheduler.parallelism);
                                         auto = one per SUT CPU, but 2 on a one-CPU SUT (a lone carrier stalls
                                         behind Tomcat's poller, GC and JIT; see README)
              --generator wrk            load generator (installed when missing)
              --probes cpu,rss,threads,cpu-threads,jfr-pinning   probes, by name (./vtlab list); --no-probes
                                         for none; nmt is opt-in (its cost: ./vtlab run probe-cost --probes cpu,nmt)
                                         options after a colon, e.g. jfr-pinning:threshold=5ms
              --pin-threshold 0ms        shortest pin JFR records (jdk.VirtualThreadPinned; JFR's default 20 ms);
                                         short for --probes ...,jfr-pinning:threshold=0ms
              --cpus-app 0 --cpus-load 1 --cpus-pg 1 --cpus-stub 1   core map overrides (taskset lists)
              --port 18080               SUT port on 127.0.0.1
              --fresh-sut                a new SUT JVM for every row (default: consecutive rows with the same
                                         SUT configuration share one warm JVM; each row still warms up)
              --out results              where run folders go

            Output: results/<UTC time>-<experiments>/ with matrix.csv (the seed rig's 23 columns, then vtlab's),
            environment.json, summary.txt and raw/ (generator output, SUT logs, runtime-info); results/latest
            points at the newest. Each row is checked against its theoretical bound and Little's law, and flagged
            when the generator saturated its cores.
            """;

    private Main() {}

    public static void main(String[] args) {
        int code;
        try {
            code = run(List.of(args), System.out);
        } catch (UsageError e) {
            System.err.println("vtlab: " + e.getMessage());
            code = 2;
        } catch (InterruptedException e) {
            code = 130;
        } catch (Exception e) {
            System.err.println("vtlab: " + e);
            code = 1;
        }
        System.exit(code);
    }

    public static int run(List<String> args, PrintStream out) throws Exception {
        Options o = Options.parse(args);
        List<String> words = o.positional();
        String cmd = words.isEmpty() ? "help" : words.getFirst();
        if (o.flag("help")) cmd = "help";
        switch (cmd) {
            case "help" -> out.print(HELP);
            case "list" -> out.print(words.size() > 1 && words.get(1).equals("columns") ? columns() : list());
            case "doctor" -> out.print(doctor());
            case "dump" -> out.print(dump(words.subList(1, words.size())));
            case "run" -> {
                return runCommand(o, words.subList(1, words.size()), args, out);
            }
            case "report" -> {
                return ReportCommand.run(o, words.subList(1, words.size()), out);
            }
            case "compare" -> {
                return CompareCommand.run(o, words.subList(1, words.size()), out);
            }
            default -> throw new UsageError("unknown command '" + cmd + "' (run, list, doctor, report, compare, test, help)");
        }
        return 0;
    }

    /** Plans and checks everything before starting anything, then runs. */
    static int runCommand(Options o, List<String> names, List<String> args, PrintStream out) throws Exception {
        Prepared p = prepare(o, names);
        out.println("vtlab: " + p.rows().size() + " rows" + (p.studies().isEmpty() ? "" : " and " + p.studies().size() + " studies")
                + " of " + String.join(", ", p.experiments()) + ", about " + minutes(p.rows(), p.studySeconds())
                + " (generator " + p.generator().name() + ", probes " + String.join(",", p.probes())
                + (p.rows().stream().anyMatch(r -> r.params().containsKey(Row.PROBES_PARAM)) ? "; probe-cost rows: their own sets" : "") + ")");
        Environment env = new Environment(args, o.asMap(), p.cores(), p.rows().stream().map(Row::jdk).distinct().toList(),
                p.generator().name(), p.generator().version(), p.probes(), p.rows().size());
        Runner.Outcome done = new Runner(out).run(new Runner.Config(p.planned(), p.studies(), p.studySeconds(), p.generator(),
                p.cores(), p.port(), p.results(), home().resolve(".vtlab"), p.tierOptions(), env, p.experiments(), o, p.plan()));
        RunDir dir = done.dir();
        if (done.complete()) {
            // the experiments' findings go to findings.json, which the summary and the report read
            String summary = vtlab.report.Summary.forRun(dir.matrix(), vtlab.experiment.RunFindings.write(dir.dir(), p.experiments()));
            Files.writeString(dir.summary(), summary);
            out.print(summary);
            vtlab.report.Report.afterRun(dir.dir(), out);
        }
        out.println("vtlab: results in " + dir.dir() + " (matrix.csv, summary.txt, environment.json, raw/)");
        return 0;
    }

    public record Prepared(List<String> experiments, List<Row> rows, List<Study.Prepared> studies, long studySeconds,
                           Generator generator, List<String> probes, CoreMap cores, int port, Path results,
                           java.util.Map<String, String> tierOptions, PlanContext plan, boolean freshSut,
                           List<PlannedRow> planned) {}

    /**
     * The default demo: the article's sleep servlet at 400 and 1,000 connections, both modes, once; under 3 minutes:
     * a fixed 15 s warm-up (full runs warm up until the rate and the JIT settle), 15 s hold.
     */
    static final java.util.Map<String, String> DEMO = java.util.Map.of("workloads", "sleep", "reps", "1", "warmup", "15s",
            "warmup-max", "0s", "hold", "15s");

    /** Options of the lab itself, whichever experiments run (see HELP); each experiment declares its own besides. */
    static final java.util.Set<String> GLOBAL = java.util.Set.of("help", "quick", "jdk", "jvm-args", "carriers", "warmup-max",
            "generator", "probes", "no-probes", "pin-threshold", "cpus-app", "cpus-load", "cpus-pg", "cpus-stub", "port",
            "fresh-sut", "out", "reseed");

    /** Options given that neither the lab nor any of these experiments declares. */
    public static List<String> unknown(Options given, List<Experiment> experiments) {
        java.util.Set<String> known = new java.util.HashSet<>(GLOBAL);
        for (Experiment e : experiments) e.options().forEach(d -> known.add(d.name()));
        return given.unknown(known);
    }

    /** Everything that can be refused is refused here, before any process starts. */
    public static Prepared prepare(Options given, List<String> names) throws UsageError {
        List<String> experiments = new ArrayList<>(names);
        Options o = given;
        if (experiments.isEmpty()) {
            experiments.add("servlet");
            o = given.withDefaults(DEMO);
        }
        List<Experiment> chosen = new ArrayList<>();
        for (String name : new LinkedHashSet<>(experiments)) chosen.add(Experiments.byName(name));
        List<String> unknown = unknown(given, chosen);
        if (!unknown.isEmpty()) {
            throw new UsageError("option --" + unknown.getFirst() + " is not known to " + String.join(", ", experiments) + " (see ./vtlab list)");
        }
        PlanContext ctx = PlanContext.from(o);
        List<Row> rows = new ArrayList<>();
        List<Study.Prepared> studies = new ArrayList<>();
        long studySeconds = 0;
        for (String name : new LinkedHashSet<>(experiments)) {
            Experiment e = Experiments.byName(name);
            if (e instanceof Study s) {
                Study.Prepared sp = s.prepare(o, ctx);
                studySeconds += sp.seconds();
                studies.add(sp);
            } else {
                rows.addAll(e.plan(o, ctx));
            }
        }
        if (rows.isEmpty() && studies.isEmpty()) throw new UsageError("the options leave no row to run");
        CoreMap cores = CoreMap.compute(Runtime.getRuntime().availableProcessors(), o);
        List<String> probes = o.flag("no-probes") ? List.of() : Probes.validate(o.has("probes") ? o.all("probes") : Probes.DEFAULT);
        Generator gen = Generators.byName(o.string("generator", "wrk"));
        int port = o.positiveInt("port", 18080);
        Path results = Path.of(o.string("out", home().resolve("results").toString()));
        boolean freshSut = o.flag("fresh-sut");
        String pinThreshold = o.has("pin-threshold") ? o.duration("pin-threshold", java.time.Duration.ZERO, true).toMillis() + "ms" : null;
        List<PlannedRow> planned = new ArrayList<>();
        for (Row r : rows) planned.add(planned(r, probes, freshSut, pinThreshold));
        java.util.Map<String, String> tierOptions = new java.util.LinkedHashMap<>();
        if (o.flag("reseed")) tierOptions.put("reseed", "true");
        if (port > 65535) throw new UsageError("--port must be at most 65535");
        if (!rows.isEmpty()) checkPortFree(port);
        checkFileLimit(rows.stream().mapToInt(Row::concurrency).max().orElse(0));
        for (Row r : rows) {
            Stack s = Stack.load(r.stack());
            if (!s.built()) throw new UsageError("stack " + s.name() + " is not built (" + s.jar() + "): run ./vtlab build");
        }
        if (OsPackages.which("taskset").isEmpty()) throw new UsageError("taskset not found: install util-linux");
        if (!rows.isEmpty()) gen.ensureAvailable();
        return new Prepared(List.copyOf(new LinkedHashSet<>(experiments)), rows, studies, studySeconds, gen, probes, cores,
                port, results, tierOptions, ctx, freshSut, planned);
    }

    /**
     * A row with its hooks resolved, so the runner needs no experiment: its probes (its own set or the run's, plus
     * what its experiment needs; --pin-threshold as jfr-pinning's option), a fresh JVM or not, the experiment's extra
     * verification, and every registered probe's drains (the pool's idle wait runs whether or not hikari is probed).
     */
    static PlannedRow planned(Row r, List<String> runProbes, boolean freshSut, String pinThreshold) throws UsageError {
        Experiment e;
        try {
            e = Experiments.byName(r.experiment());
        } catch (UsageError x) {
            e = null; // rows are planned by a known experiment: this is a row made by hand (tests)
        }
        List<String> probes = r.probes(runProbes);
        if (e != null) probes = e.probes(probes);
        if (pinThreshold != null) probes = Probes.withOption(probes, "jfr-pinning", "threshold", pinThreshold);
        Probes.validate(probes);
        List<vtlab.plan.Drain> drains = new ArrayList<>();
        for (java.util.function.Supplier<Probe> p : Probes.all().values()) drains.addAll(p.get().drains(r));
        return new PlannedRow(r, probes, freshSut || (e != null && e.freshSutPerRow()), e == null ? RowCheck.NONE : e::verify, drains);
    }

    static void checkPortFree(int port) throws UsageError {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
        } catch (IOException e) {
            throw new UsageError("port " + port + " on 127.0.0.1 is in use; stop what holds it or pass --port");
        }
    }

    /**
     * The generator and the SUT each hold one socket per connection. The JVM raises its own soft limit to the hard
     * limit at start-up and children inherit it; the article's run failed with "too many open files" at 1,000.
     */
    static void checkFileLimit(int connections) throws UsageError {
        vtlab.tier.FileLimits.raise(2L * connections + 4096); // as root: room for a SUT's downstream sockets too
        long limit = vtlab.tier.FileLimits.softLimit();
        long needed = connections + 1024L;
        if (limit > 0 && needed > limit) {
            throw new UsageError(connections + " connections need about " + needed + " open files per process, but the limit is "
                    + limit + " (raise the hard limit: ulimit -Hn / limits.conf)");
        }
    }

    static String minutes(List<Row> rows, long extraSeconds) {
        long s = rows.stream().mapToLong(r -> r.plannedSeconds() + 6).sum() + extraSeconds;
        return s >= 120 ? (s / 60) + " min" : s + " s";
    }

    public static Path home() {
        return vtlab.core.LabHome.get();
    }

    static String list() {
        StringBuilder sb = new StringBuilder("Experiments (./vtlab run NAME [options]):\n");
        for (Experiment e : Experiments.all().values()) {
            sb.append("\n  ").append(e.name()).append(" - ").append(e.summary()).append('\n');
            for (String a : e.axes()) sb.append("      ").append(a).append('\n');
        }
        sb.append("\nStacks (stacks/NAME/stack.json):\n");
        Stack.all().forEach((n, s) -> sb.append("  ").append(String.format("%-12s", n)).append(s.description())
                .append(s.built() ? "" : "  [not built]").append("\n      workloads: ").append(String.join(", ", s.workloads().keySet())).append('\n'));
        sb.append("\nProbes (--probes a,b):\n");
        Probes.all().forEach((n, p) -> {
            Probe probe = p.get();
            sb.append("  ").append(String.format("%-12s", n)).append(probe.description())
                    .append(Probes.DEFAULT.contains(n) ? "  [default]" : "").append('\n');
        });
        sb.append("\nGenerators (--generator NAME):\n");
        Generators.all().forEach((n, g) -> sb.append("  ").append(String.format("%-12s", n)).append(g.get().description()).append('\n'));
        return sb.toString();
    }

    /** `list columns`: matrix.csv's columns as their components declare them, seed columns first. */
    static String columns() {
        StringBuilder sb = new StringBuilder("Columns of matrix.csv (name, kind, unit, meaning):\n");
        for (vtlab.data.Column c : vtlab.run.MatrixSchema.full().columns()) sb.append("  ").append(c.describe()).append('\n');
        return sb.toString();
    }

    /** The thread dump of a SUT the lab started (the only one running, or the PID given). */
    static String dump(List<String> args) throws Exception {
        long pid;
        if (!args.isEmpty()) {
            try {
                pid = Long.parseLong(args.getFirst());
            } catch (NumberFormatException e) {
                throw new UsageError("dump takes a process id, not '" + args.getFirst() + "'");
            }
            if (ProcessHandle.of(pid).isEmpty()) throw new UsageError("no process " + pid);
        } else {
            List<ProcessHandle> suts = ProcessHandle.allProcesses()
                    .filter(p -> p.info().commandLine().orElse("").matches(".*/stacks/[^ ]+/target/vtlab-[^ ]+\\.jar.*")).toList();
            if (suts.size() != 1) {
                throw new UsageError(suts.isEmpty() ? "no running vtlab SUT found; give a PID: ./vtlab dump PID"
                        : suts.size() + " SUTs running (" + suts.stream().map(p -> Long.toString(p.pid())).toList() + "): give a PID");
            }
            pid = suts.getFirst().pid();
        }
        Path file = Files.createTempFile("vtlab-threads-" + pid + "-", ".json");
        vtlab.probe.ThreadDump.take(Jdk.current(), pid, file);
        return vtlab.probe.ThreadDump.summarize(Files.readString(file), 8).render(8) + "dump: " + file + "\n";
    }

    static String doctor() {
        StringBuilder sb = new StringBuilder();
        int cpus = Runtime.getRuntime().availableProcessors();
        sb.append("CPUs          ").append(cpus).append('\n');
        try {
            sb.append("core map      ").append(CoreMap.compute(cpus, null)).append('\n');
        } catch (UsageError e) {
            sb.append("core map      ").append(e.getMessage()).append('\n');
        }
        sb.append("open files    ").append(vtlab.tier.FileLimits.softLimit()).append(" (soft limit of the lab, inherited by the tiers)\n");
        sb.append("lab JDK       ").append(Jdk.current().label()).append("  ").append(Jdk.current().home()).append('\n');
        sb.append("JDKs >= 21 found (use with --jdk PATH or --jdk MAJOR):\n");
        for (Jdk j : Jdk.discover()) {
            sb.append("  ").append(String.format("%-40s", j.label())).append(j.home())
                    .append(j.jcmd().isPresent() ? "" : "  [no jcmd: nmt probe unavailable]").append('\n');
        }
        for (String g : Generators.all().keySet()) {
            sb.append("generator     ").append(g).append(": ")
                    .append(OsPackages.which(g).map(Path::toString).orElse("not installed (installed on first run when possible)")).append('\n');
        }
        sb.append("taskset       ").append(OsPackages.which("taskset").map(Path::toString).orElse("MISSING (util-linux)")).append('\n');
        Stack.all().forEach((n, s) -> sb.append("stack         ").append(String.format("%-12s", n)).append(s.built() ? "built" : "not built (./vtlab build)").append('\n'));
        return sb.toString();
    }

}
