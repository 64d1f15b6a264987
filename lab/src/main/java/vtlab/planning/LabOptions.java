package vtlab.planning;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import vtlab.check.Slo;
import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.load.generator.Generators;
import vtlab.plan.Experiment;
import vtlab.plan.PlanContext;
import vtlab.plan.RunOptions;
import vtlab.plan.Study;
import vtlab.probe.Probes;

/** The options of the lab itself, whichever experiments run, and the demo a run without a name runs. */
public final class LabOptions {
    private LabOptions() {}

    /**
     * The default demo: the article's sleep servlet at 400 and 1,000 connections, once, on platform threads and on
     * virtual threads both tuned and as shipped (what the flag alone gives); about 3 minutes: a fixed 15 s warm-up
     * (full runs warm up until the rate and the JIT settle), 12 s hold.
     */
    public static final String DEMO_EXPERIMENT = "servlet";
    public static final Map<String, String> DEMO = Map.of("workloads", "sleep", "reps", "1", "warmup", "15s",
            "warmup-max", "0s", "hold", "12s", "modes", "platform,virtual,virtual-as-shipped");

    /**
     * Options of the lab itself, whichever experiments run: RunOptions and --generator, declared beside the generators'
     * registry it chooses from, in the order the run's help shows them; each experiment declares its own besides.
     */
    public static final List<Opt> OWN = ownOptions();
    public static final Set<String> GLOBAL = Set.copyOf(OWN.stream().map(Opt::name).toList());

    /** The probes a run asks for: none with --no-probes, --probes resolved against the defaults, else the defaults. */
    static List<String> probes(Options o, List<String> defaults) throws UsageError {
        if (RunOptions.NO_PROBES.on(o)) return List.of();
        return RunOptions.PROBES.given(o) ? Probes.resolve(RunOptions.PROBES.list(o), defaults) : defaults;
    }

    private static List<Opt> ownOptions() {
        List<Opt> all = new ArrayList<>(RunOptions.ALL);
        all.add(all.indexOf(RunOptions.WARMUP_MAX) + 1, Generators.OPTION); // where the help has always shown it
        return List.copyOf(all);
    }

    /** --fail-on's thresholds, null without; refused in one line when they do not parse. */
    public static Slo failOn(Options o) throws UsageError {
        return RunOptions.FAIL_ON.given(o) ? Slo.failOn(RunOptions.FAIL_ON.string(o, "")) : null;
    }

    /** Options given that neither the lab nor any of these experiments declares. */
    public static List<String> unknown(Options given, List<Experiment> experiments) {
        Set<String> known = new HashSet<>(GLOBAL);
        Generators.options().forEach(d -> known.add(d.name())); // refused by name with any other generator (Generators.configured)
        for (Experiment e : experiments) {
            e.options().forEach(d -> known.add(d.name()));
            if (!(e instanceof Study)) PlanContext.LOAD_OPTIONS.forEach(d -> known.add(d.name())); // every load experiment's
        }
        return given.unknown(known);
    }

    /** A suite part's settings as defaults; under --quick its timing is --quick's (the parts' axes stay). */
    static Map<String, String> suiteSettings(Map<String, String> part, Options o) throws UsageError {
        if (!RunOptions.QUICK.on(o)) return part;
        Map<String, String> out = new LinkedHashMap<>(part);
        out.keySet().removeAll(Set.of("reps", "warmup", "hold"));
        return out;
    }
}
