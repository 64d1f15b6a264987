package vtlab.planning;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.load.Generator;
import vtlab.load.LoadModel;
import vtlab.load.generator.Generators;
import vtlab.plan.Experiment;
import vtlab.plan.Row;

/** The run's one generator, chosen from the options and the rows it must send. */
public final class GeneratorChoice {
    private GeneratorChoice() {}

    /**
     * The run's generator: --generator, else the one the experiments name, else each load model's default: wrk closed
     * (the seeds' numbers), oha open (latency from the intended send time); rows with a rate profile vegeta (k6, opt-in,
     * follows them too).
     * Refused when it cannot send the rows' load model or profile.
     */
    public static Generator choose(Options o, List<Experiment> chosen, List<Row> rows, boolean open, boolean runProfile) throws UsageError {
        Set<String> wanted = new LinkedHashSet<>();
        chosen.forEach(e -> { if (e.generator() != null) wanted.add(e.generator()); });
        boolean profiled = rows.stream().anyMatch(r -> r.rateProfile() != null); // --rate-profile, or an experiment's spike rows
        String dflt = profiled ? "vegeta" : wanted.size() == 1 ? wanted.iterator().next() : open ? "oha" : "wrk";
        Generator gen = Generators.configured(Generators.OPTION.string(o, dflt), o);
        if (profiled && !gen.followsRateProfile()) {
            throw new UsageError((runProfile ? "--rate-profile: " : "rows with a rate profile (spikes): ") + gen.name()
                    + " sends constant rates only; use --generator " + String.join(" or ", profileGenerators()) + " (or drop --generator)");
        }
        if (open && !gen.models().contains(LoadModel.OPEN)) {
            throw new UsageError(gen.name() + " runs closed-model load only; " + openGenerators());
        }
        if (!open && !gen.models().contains(LoadModel.CLOSED)) {
            throw new UsageError(gen.name() + " runs open-model load only here: add --load-model open --rates R, or use --generator wrk");
        }
        return gen;
    }

    /** The generators that follow a rate profile, by name. */
    static List<String> profileGenerators() {
        List<String> out = new ArrayList<>();
        for (var e : Generators.all().entrySet()) if (e.getValue().get().followsRateProfile()) out.add(e.getKey());
        return out;
    }

    /** What to use instead, for the refusal: the registered generators that run an open-model load, if any. */
    static String openGenerators() {
        List<String> open = new ArrayList<>();
        for (var e : Generators.all().entrySet()) if (e.getValue().get().models().contains(LoadModel.OPEN)) open.add(e.getKey());
        return open.isEmpty() ? "no generator of this lab runs an open-model load"
                : "use --generator " + String.join(" or ", open);
    }
}
