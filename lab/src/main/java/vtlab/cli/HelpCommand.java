package vtlab.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.data.RunDir;
import vtlab.experiment.registry.Experiments;
import vtlab.load.generator.Generators;
import vtlab.plan.Experiment;
import vtlab.plan.PlanContext;
import vtlab.plan.Study;
import vtlab.planning.LabOptions;
import vtlab.probe.Probes;
import vtlab.tier.fault.Fault;

/**
 * ./vtlab help (and --help): the commands and the options every run takes; `run --help` the run's part,
 * `run EXPERIMENT --help` that experiment's own options. Experiments, generators, probes, fault kinds and output files are listed
 * from their registries, so the help names what the code has.
 */
final class HelpCommand implements Command {
    static final String HEADER = "vtlab: what flipping a Java service from a platform-thread pool to virtual threads does, measured here.\n";

    static final String COMMANDS = """
            Usage:
              ./vtlab run [EXPERIMENT...] [options]   run experiments (no name: a ~3 minute servlet sleep demo)
              ./vtlab run EXPERIMENT --help           that experiment's axes, options and defaults
              ./vtlab run FILE.toml [--junit F]       a scenario file: a service under a weighted mix of requests, with
                                                      thresholds (exit code 99 when one fails; docs/scenarios.md)
              ./vtlab init --app JAR | --cmd "..." | --stack NAME   writes a commented starting scenario file,
                                                      with ab's service options given (--port, --url, --env, ...);
                                                      --from-log ACCESS.LOG: the traffic of a service's access log
              ./vtlab COMMAND --help                  that command's own usage and options
              ./vtlab run capacity [--of EXP] --slo "p99<100ms,errors<0.1%"
                                                      per thread mode, the highest constant rate meeting the SLO
              ./vtlab ab --app PATH.jar --url PATH    your own service, platform vs virtual threads (a Spring Boot
                                                      jar is switched by the lab, and a tuned variant added; or
                                                      --cmd "..." with --virtual-args/--virtual-env): the thread
                                                      mode proven by thread dumps under load, a verdict in words
                                                      (its options: ./vtlab list; docs/ab.md)
              ./vtlab tiers [pg] [stub]               the lab's PostgreSQL (seeded as spring-mvc declares it) and
                                                      stub on their CPUs until Ctrl-C, printing the --env for ab
              ./vtlab hosts up N [--out hosts.toml]   N test hosts on this machine (network namespaces with an sshd
                                                      each, as root) and the topology file naming them; the SUT on
                                                      h1, load agents on h2..N (docs/design.md, "Beyond one machine")
              ./vtlab hosts down                      removes every test host (sshd, namespaces, links, bridge)
              ./vtlab hosts check [hosts.toml]        reaches every host of a topology file: CPUs, kernel, JDK,
                                                      clock offset, or why it is unreachable (exit 1)
              ./vtlab list                            experiments with their axes and defaults, stacks, probes
              ./vtlab list columns                    every matrix.csv column with its unit and meaning
              ./vtlab doctor                          what the lab found: JDKs, tools (version, path), CPUs, limits
              ./vtlab setup [TOOL...]                 install every external tool at its pinned version (wrk, hey,
                                                      oha, vegeta, postgres, toxiproxy-server, chromium, chromedriver,
                                                      jdk21, sshd, ip), a line each; ./vtlab test runs it first,
                                                      ./vtlab run what its rows need; k6 (AGPL-3.0) is opt-in:
                                                      only ./vtlab setup k6 or --generator k6 installs it
              ./vtlab dump [PID]                      JSON thread dump of a running SUT (virtual threads included),
                                                      summarised: virtual threads by state, top stacks
              ./vtlab report RUN_DIR                  (re)write RUN_DIR/report.html and charts/ (also done after every run)
              ./vtlab compare RUN_A RUN_B [--out F]   the same rows of two runs side by side with deltas (+ compare.html),
                [--max-regression 5%] [--margin 5%]   each judged over fork means: better, worse, equivalent within
                                                      the margin, or undetermined; exit 99 when a row got slower by
                                                      more than that and the judge says worse
              ./vtlab help [run [EXPERIMENT]]         this help; the run's; an experiment's (also --help, -h)
              ./vtlab version                         vtlab's version and commit, and the JDK it runs on (also --version)
              ./vtlab test                            setup, then the whole test suite (what CI runs)
              ./vtlab test --repeat N [--only CLASS...]
                                                      the flake finder: the end-to-end tests (CLASS or
                                                      CLASS#method of lab/src/test/java/vtlab/it; all without
                                                      --only) N times, built once, no unit test; a table of each
                                                      test's passes of N, its first failure's reason and each run's
                                                      time (reports in lab/target/flake/1..N); exit 0 only if every
                                                      test passed every time
            """;

    /**
     * The run's options, rendered from their declarations: the lab's own ({@link LabOptions#OWN}), the load model's (every
     * load experiment's) and the generators' own; each experiment's axes are in its own help.
     */
    static String runOptions() {
        StringBuilder sb = new StringBuilder("Run options (each experiment adds its own axes, as --modes, --conc, --reps, --warmup, --hold:\n"
                + "./vtlab run EXPERIMENT --help):\n");
        for (String line : Opt.render(LabOptions.OWN)) sb.append("  ").append(line).append('\n');
        sb.append("\nLoad model (every load experiment):\n");
        for (String line : Opt.render(PlanContext.LOAD_OPTIONS)) sb.append("  ").append(line).append('\n');
        sb.append("\nGenerators' own options (refused with any other generator):\n");
        for (String line : Opt.render(Generators.options())) sb.append("  ").append(line).append('\n');
        return sb.append(EXIT_CODES).toString();
    }

    static final String EXIT_CODES = """

            Exit codes: 0 every row ok; 1 some rows failed (the run finished; wins over 99); 2 bad input, or a run
            folder report/compare cannot read; 99 thresholds breached (--fail-on, compare --max-regression);
            130 interrupted.
            """;

    /** The launcher's own commands (./vtlab test, ./vtlab build: shell, not the lab), whose --help the launcher asks here. */
    static final Map<String, String> LAUNCHER = new java.util.LinkedHashMap<>();

    static {
        LAUNCHER.put("test", """
                    Usage: ./vtlab test [MAVEN OPTIONS...]
                      builds what changed and installs every tool (./vtlab setup; oha's build at idle priority) beside the
                      unit tests, then the end-to-end tests against the packaged stacks in one Maven verify, those that
                      need oha last (it may still build until then; what CI runs: .ci/run); its closing lines name the
                      counts and every skipped or failed test with its reason.
                    Usage: ./vtlab test --repeat N [--only CLASS[#method]...]
                      the flake finder: the end-to-end tests (lab/src/test/java/vtlab/it; all without --only) N times on one
                      build, no unit test; a table of each test's passes of N, its first failure's reason and each run's
                      time (reports in lab/target/flake/1..N); exit code 0 only if every test passed every time.
                    """);
        LAUNCHER.put("build", """
                    Usage: ./vtlab build
                      builds the lab and the systems under test with the committed Maven wrapper (tests skipped), as any
                      command does by itself when sources changed; refused while a run uses the build.
                    """);
    }

    @Override
    public String name() {
        return "help";
    }

    @Override
    public String help() {
        return text();
    }

    /** @param args nothing (all), or a command: `run` with experiment names gives their options */
    @Override
    public int run(Options o, List<String> args, PrintStream out) throws UsageError {
        if (args.isEmpty()) {
            out.print(text());
        } else if (!args.getFirst().equals("run")) {
            Command c = Main.commands(List.of()).get(args.getFirst());
            String launcher = LAUNCHER.get(args.getFirst());
            if (c == null && launcher == null) throw new UsageError(Main.unknownCommand(args.getFirst()));
            out.print(c != null ? c.help() : launcher);
        } else if (args.size() == 1) {
            out.print(runText());
        } else {
            // a scenario file (run FILE.toml --help) is the scenario experiment's options
            for (String name : args.subList(1, args.size())) {
                out.print(experimentText(Experiments.byName(ScenarioRun.isScenario(List.of(name)) ? vtlab.experiment.scenario.ScenarioExperiment.NAME : name)));
            }
        }
        return 0;
    }

    /** ./vtlab --help. */
    static String text() {
        return HEADER + "\n" + COMMANDS + "\n" + runOptions() + "\n" + registries();
    }

    /** ./vtlab run --help: the run's usage, the demo it runs without a name, its options and the registries. */
    static String runText() {
        Map<String, String> demo = new TreeMap<>(LabOptions.DEMO);
        StringBuilder demoArgs = new StringBuilder();
        demo.forEach((k, v) -> demoArgs.append(" --").append(k).append(' ').append(v));
        return "Usage: ./vtlab run [EXPERIMENT...] [options]\n"
                + "  runs the experiments named, their rows in one run folder; without a name the demo:\n"
                + "  ./vtlab run " + LabOptions.DEMO_EXPERIMENT + demoArgs + " (options given replace these)\n"
                + "  ./vtlab run EXPERIMENT --help shows an experiment's own axes and defaults.\n\n"
                + runOptions() + "\n" + registries();
    }

    /** ./vtlab run NAME --help: the experiment's declared options with their defaults, as it parses them. */
    static String experimentText(Experiment e) {
        StringBuilder sb = new StringBuilder("./vtlab run " + e.name() + " [options]: " + e.summary() + "\n\nOptions of " + e.name()
                + " (default after the name):\n");
        for (String line : e.axes()) sb.append("  ").append(line).append('\n');
        if (!e.example().isEmpty()) {
            sb.append("\nExample (its defaults need these): ./vtlab run ").append(e.name()).append(' ')
                    .append(String.join(" ", e.example().stream().map(HelpCommand::quoted).toList())).append('\n');
        }
        if (!(e instanceof Study)) {
            sb.append("\nLoad model (every load experiment):\n");
            for (String line : Opt.render(PlanContext.LOAD_OPTIONS)) sb.append("  ").append(line).append('\n');
        }
        return sb.append("\nThe run's own options (JDKs, generator, probes, CPUs, ...): ./vtlab run --help\n\n").toString();
    }

    /** A word as a shell takes it: quoted when it holds anything but plain path characters. */
    static String quoted(String word) {
        return word.matches("[A-Za-z0-9_./:=@,+-]+") ? word : "'" + word.replace("'", "'\\''") + "'";
    }

    /** Experiments, generators, probes, fault kinds and the run folder's files, from their registries. */
    static String registries() {
        StringBuilder sb = new StringBuilder("Experiments (./vtlab run NAME; ./vtlab run NAME --help for its options; ./vtlab list for all):\n");
        sb.append(wrap(String.join(", ", Experiments.all().keySet()), "  ")).append('\n');
        sb.append("\nGenerators (--generator NAME):\n");
        Generators.all().forEach((n, g) -> sb.append(String.format("  %-12s%s", n, g.get().description())).append('\n'));
        sb.append("\nProbes (--probes a,b):\n");
        Probes.all().forEach((n, p) -> sb.append(String.format("  %-12s%s%s", n, p.get().description(),
                Probes.DEFAULT.contains(n) ? "  [default]" : "")).append('\n'));
        sb.append("\nFault kinds (--fault TARGET:KIND[=AMOUNT]@FROM-TO):\n");
        Fault.kinds().forEach(k -> sb.append(String.format("  %-12s%s%s, e.g. %s", k.name(), k.effect(),
                k.throughProxy() ? " (through a Toxiproxy in front of the dependency)" : "", k.example())).append('\n'));
        sb.append("\nOutput: results/<UTC time>-<experiments>/ (results/latest points at the newest):\n");
        RunDir.FILES.forEach(f -> sb.append(String.format("  %-18s%s", f.getKey(), f.getValue())).append('\n'));
        sb.append("Each row is checked against its theoretical bound and Little's law, and flagged when the generator\n"
                + "saturated its cores.\n");
        return sb.toString();
    }

    /** A comma list broken into lines of at most 110 characters. */
    static String wrap(String list, String indent) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder(indent);
        for (String word : list.split(" ")) {
            if (line.length() + word.length() + 1 > 110 && line.length() > indent.length()) {
                lines.add(line.toString().stripTrailing());
                line = new StringBuilder(indent);
            }
            line.append(word).append(' ');
        }
        lines.add(line.toString().stripTrailing());
        return String.join("\n", lines);
    }
}
