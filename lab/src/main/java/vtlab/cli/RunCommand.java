package vtlab.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import vtlab.plan.RunOptions;
import vtlab.core.LabHome;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.data.Environment;
import vtlab.experiment.scenario.ScenarioExperiment;
import vtlab.load.Generator;
import vtlab.plan.PlannedRow;
import vtlab.plan.Row;
import vtlab.plan.Search;
import vtlab.planning.HostsPlan;
import vtlab.planning.LabOptions;
import vtlab.planning.Preflight;
import vtlab.planning.RunPlan;
import vtlab.proc.CoreMap;
import vtlab.run.Runner;
import vtlab.tier.SutHandle;
import vtlab.tier.SutProcess;
import vtlab.tier.host.Topology;

/**
 * ./vtlab run: reads the options into the run's plan ({@link RunPlan}: every refusal before anything starts), checks
 * this machine and reaches the hosts ({@link #prepare}), hands the plan to the runner, then runs the steps after the
 * rows ({@link AfterRun}: findings, summary, report, exit code; a scenario's own).
 */
public final class RunCommand implements Command {
    /** The command line as given, for environment.json. */
    private final List<String> commandLine;

    public RunCommand(List<String> commandLine) {
        this.commandLine = commandLine;
    }

    @Override
    public String name() {
        return "run";
    }

    @Override
    public String help() {
        return HelpCommand.runText();
    }

    /** The lab's own options (--help and --version aside); each experiment's are in its own help. */
    @Override
    public Set<String> options() {
        Set<String> all = new TreeSet<>(LabOptions.GLOBAL);
        all.removeAll(Set.of("help", "version"));
        return all;
    }

    @Override
    public int run(Options o, List<String> names, PrintStream out) throws Exception {
        if (ScenarioRun.isScenario(names)) { // ./vtlab run FILE.toml: the file's options, run as the scenario experiment, then its thresholds
            ScenarioRun scenario = ScenarioRun.of(o, names, out);
            return execute(scenario.options(), List.of(ScenarioExperiment.NAME), scenario.steps(), out).code();
        }
        return execute(o, names, out).code();
    }

    /** A finished run: the runner's outcome and the exit code it earns (ExitCodes). */
    record Executed(Runner.Outcome done, int code) {}

    Executed execute(Options o, List<String> names, PrintStream out) throws Exception {
        return execute(o, names, List.of(), out);
    }

    /** Plans, runs, then the steps after the rows: every run's ({@link AfterRun#ofRun}), then more (a scenario's). */
    Executed execute(Options o, List<String> names, List<AfterRun> more, PrintStream out) throws Exception {
        Prepared p = prepare(o, names);
        RunPlan plan = p.plan();
        out.println(plan.line(p.generator().name()));
        Environment env = p.environment(commandLine);
        RunAcrossHosts.Across across = p.across();
        if (across != null) across.describe().forEach(out::println);
        Runner.Outcome done;
        try {
            Runner.Builder config = Runner.Config.builder().rows(plan.planned()).studies(plan.studies(), plan.studySeconds()).generator(p.generator())
                    .cores(p.cores()).port(plan.port()).folders(plan.results(), LabHome.get().resolve(".vtlab")).tierOptions(plan.tierOptions())
                    .environment(env).experiments(plan.experiments()).kept(plan.kept()).plan(plan.ctx()).searches(plan.searches(), plan.hooks()).launcher(p.launcher());
            if (across != null) config.hosts(across.run()::unreachable, across.sites());
            done = new Runner(out).run(config.build());
        } finally {
            if (across != null) {
                List<String> left = across.run().finish();
                if (!left.isEmpty()) out.println("vtlab: still running on the hosts after the run, killed: " + String.join(", ", left));
                List<String> notReached = across.run().notReached();
                if (!notReached.isEmpty()) out.println("vtlab: not reached after the run, not swept: " + String.join("; ", notReached));
            }
        }
        List<AfterRun> steps = new ArrayList<>(AfterRun.ofRun());
        steps.addAll(more);
        return new Executed(done, AfterRun.runAll(steps, new AfterRun.State(done, plan.experiments(), plan.failOn(), out)));
    }

    /**
     * After a finished run: the experiments' findings to findings.json (which the summary and the report read), the
     * summary to summary.json and, with the findings, to summary.txt and the terminal, then report.html.
     */
    public static void writeResults(Runner.Outcome done, List<String> experiments, PrintStream out) throws IOException {
        List<AfterRun> steps = List.of(new RunSteps.WriteFindings(), new RunSteps.WriteSummary(), new RunSteps.WriteReport());
        AfterRun.runAll(steps, new AfterRun.State(done, experiments, null, out));
    }

    /**
     * A plan ready to run: the machine checked, the hosts reached (--hosts), and what they give the run: the generator
     * (the agents' with --hosts) and the CPUs.
     */
    public record Prepared(RunPlan plan, RunAcrossHosts.Across across, Generator generator, CoreMap cores) {
        /** Where the SUT runs: here, or on its host (--hosts). */
        SutHandle.Launcher launcher() {
            return across == null ? SutProcess::start : across.launcher();
        }

        /** environment.json as the run starts: the command, the machine, the generator, the probes, the hosts. */
        Environment environment(List<String> commandLine) {
            List<Row> rows = plan.rows();
            Environment env = new Environment(commandLine, plan.options().asMap(), cores,
                    Stream.concat(rows.stream(), plan.searches().stream().map(Search::template)).map(Row::jdk).distinct().toList(),
                    generator.name(), generator.version(), plan.probes(), rows.size());
            if (across != null) {
                env.set("topology", across.file().toString());
                env.set("hosts", across.survey());
            }
            return env;
        }
    }

    /** Everything that can be refused is refused here, before any process starts. */
    public static Prepared prepare(Options given, List<String> names) throws UsageError {
        RunPlan plan = RunPlan.of(given, names);
        Preflight.check(plan);
        // across hosts: the hosts reached last of the quick checks, their work closed again if a later one refuses
        Hosts hosts = hosts(plan.options(), plan.topology(), plan.rows(), plan.planned(), plan.generator(), plan.cores());
        RunAcrossHosts.Across across = hosts.across();
        try {
            Preflight.ready(plan, hosts.generator());
        } catch (UsageError | RuntimeException e) {
            if (across != null) across.run().close();
            throw e;
        }
        return new Prepared(plan, across, hosts.generator(), hosts.cores());
    }

    /** What the hosts step gives the run: the hosts' work (null without --hosts), the run's generator and its CPUs. */
    record Hosts(RunAcrossHosts.Across across, Generator generator, CoreMap cores) {}

    /**
     * The run's hosts step: with --hosts (a topology), each planned row's probes refused unless they read a SUT on
     * another host, then the hosts reached (RunAcrossHosts.connect: the last of the quick checks, refused naming a host
     * that does not answer) and what they give the run: the generator of their load agents and the CPUs placed on
     * them. Without a topology nothing is refused or reached: this machine's generator and cores as given. The caller
     * closes the hosts' work (across.run()) if a later step refuses.
     */
    static Hosts hosts(Options o, Topology topology, List<Row> rows, List<PlannedRow> planned, Generator gen, CoreMap cores) throws UsageError {
        if (topology == null) return new Hosts(null, gen, cores);
        for (PlannedRow pr : planned) HostsPlan.refuseProbes(pr.probes());
        RunAcrossHosts.Across across = RunAcrossHosts.connect(HostsPlan.file(o), topology, rows, gen, cores, RunOptions.ALLOW_SHARED_CPUS.on(o));
        return new Hosts(across, across.generator(), across.placement().cores());
    }
}
