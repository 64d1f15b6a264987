package vtlab.plan;

import java.util.List;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;

/**
 * An experiment turns options into rows (its axes crossed), as a k6 executor turns options into a load model.
 * One experiment per file in a family of vtlab.experiment; registered in vtlab.experiment.registry.Experiments.
 */
public interface Experiment {
    String name();

    /** The experiment named name among all (a registry), or refused in one line naming those it knows. */
    static Experiment named(java.util.Map<String, Experiment> all, String name) throws UsageError {
        Experiment e = all.get(name);
        if (e == null) throw new UsageError("unknown experiment '" + name + "' (known: " + String.join(", ", all.keySet()) + ")");
        return e;
    }

    /** One line for `vtlab list`. */
    String summary();

    /**
     * The options this experiment reads, with their defaults and help: `vtlab list` shows them, and an option that
     * neither a chosen experiment nor the lab declares is refused.
     */
    List<Opt> options();

    /** Axes and their defaults, one line each, for `vtlab list` and `--help`: the declarations, rendered. */
    default List<String> axes() {
        return Opt.render(options());
    }

    /**
     * What a user must add to this experiment's defaults before it plans, as command-line words, e.g. the service ab
     * loads (its --help shows them as an example); empty: its defaults plan as they are.
     */
    default List<String> example() {
        return List.of();
    }

    /** The rows to run: the options parsed once into the experiment's spec; invalid ones are refused here. */
    List<Row> plan(Options options, PlanContext ctx) throws UsageError;

    /**
     * Rows decided as the run goes (a capacity search), besides or instead of {@link #plan}'s fixed rows; refused
     * options throw here, before anything starts.
     */
    default List<Search> searches(Options options, PlanContext ctx) throws UsageError {
        return List.of();
    }

    /**
     * Statements in words about this experiment's rows (matrix.csv as read back), e.g. the seed's finding and whether
     * this run supports it, with the numbers. Printed under the summary table and used by the report's verdicts.
     * Rows with status other than "ok" must not be used as evidence.
     */
    /**
     * Extra verification before load, after the runtime-info and endpoint checks (e.g. that a request really issues
     * its SQL query). Throw to fail the row with the message as its reason.
     */
    default void verify(Row row, java.net.URI sutBase, java.util.Map<String, vtlab.tier.RunTier> tiers) throws Exception {}

    /**
     * Whether every row needs a JVM of its own. By default consecutive rows with the same SUT configuration share
     * one (warm JIT, grown pools); experiments that read a fresh JVM's idle state (footprint) say true.
     */
    default boolean freshSutPerRow() {
        return false;
    }

    /**
     * The probes this experiment's rows run with, given the run's (--probes): an experiment whose measurement is a
     * probe's reading adds that probe (footprint needs nmt whatever the run's default).
     */
    default List<String> probes(List<String> runProbes) {
        return runProbes;
    }

    /**
     * The probes this experiment's runs start from when --probes does not replace them (none given, or only +a/-a):
     * the lab's default set unless the experiment adds to it (ab: profile), so that --probes -a can still take one away.
     */
    default List<String> defaultProbes(List<String> labDefaults) {
        return labDefaults;
    }

    /** The default probes of a run of these experiments: the lab's, with what each of them adds by default. */
    static List<String> defaultProbes(List<Experiment> chosen, List<String> labDefaults) {
        List<String> out = labDefaults;
        for (Experiment e : chosen) out = e.defaultProbes(out);
        return out;
    }

    /** Adds the probes an experiment cannot do without to the run's, keeping the run's order. */
    static List<String> withProbes(List<String> runProbes, String... needed) {
        java.util.LinkedHashSet<String> all = new java.util.LinkedHashSet<>(runProbes);
        all.addAll(List.of(needed));
        return List.copyOf(all);
    }

    /** The fault schedules its rows are run under (--fault, see {@link FaultAxis}); an experiment about faults has its own defaults. */
    default List<String> faults(Options options) throws UsageError {
        return FaultAxis.parse(options);
    }

    /**
     * The generator its rows need unless --generator says otherwise, or null for the load model's default (faults: k6,
     * whose per-request records tell timeouts, refusals, resets and status errors apart, second by second).
     */
    default String generator() {
        return null;
    }

    /**
     * What the run's rows run that no row records and its findings need (ab: the libraries in the service's jar; a
     * scenario: its file's requests), read once before anything starts and kept in the run folder's kept.json under
     * the experiment's name ({@link vtlab.data.RunKept#experiment}), so that the findings read the run as it was, after
     * the run and on ./vtlab report alike. Empty: nothing to keep.
     */
    default java.util.Map<String, Object> kept(Options options) throws UsageError {
        return java.util.Map.of();
    }

    /**
     * Whether its rows run across hosts (./vtlab run --hosts FILE: the SUT on a host of its own, load from agents),
     * as a probe says so ({@code Probe.remote()}); an experiment that does not is refused by name under --hosts.
     */
    default boolean acrossHosts() {
        return false;
    }

    /** Whether {@link #findings} understand open-model rows; if not they are given the closed rows only. */
    default boolean readsOpenRows() {
        return false;
    }

    /**
     * Findings of a run folder, finished or read back later, from its matrix.csv rows read back typed (each read
     * through its columns' declarations, numbered as in the file); a {@link Study} reads the file it wrote into the
     * folder. Each finding is a sentence with the rows it stands on (its evidence, as data: the report links them).
     */
    default List<vtlab.data.Finding> findings(java.nio.file.Path runDir, List<vtlab.data.DataRow> rows) {
        return List.of();
    }

    /**
     * After a run of it finished (its findings written), once: what the experiment keeps beyond the run folder (ab
     * --aa: the machine's noise floor), said on out. Not on ./vtlab report, which reads a run again and keeps nothing.
     */
    default void afterRun(java.nio.file.Path runDir, List<vtlab.data.DataRow> rows, java.io.PrintStream out) throws java.io.IOException {}

    /** The findings' sentences over rows given as cells (a test's, a tool's), numbered in their order as a matrix's. */
    default List<String> findings(List<java.util.Map<String, String>> rows) {
        return vtlab.data.Finding.texts(findings(null, vtlab.data.DataRow.numbered(rows)));
    }
}
