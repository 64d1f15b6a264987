package vtlab.load.generator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.load.Generator;
import vtlab.load.LoadAgent;
import vtlab.load.LoadModel;
import vtlab.tier.host.HostRun;

/** The generators selectable with --generator NAME. */
public final class Generators {
    private static final Map<String, Supplier<Generator>> ALL = new LinkedHashMap<>();

    static {
        ALL.put("wrk", WrkGenerator::new);
        ALL.put("hey", HeyGenerator::new);
        ALL.put("oha", OhaGenerator::new);
        ALL.put("vegeta", VegetaGenerator::new);
        ALL.put("k6", K6Generator::new);
    }

    /** --generator, the lab's own option declared beside the registry it chooses from (its choices: the names above). */
    public static final Opt OPTION = Opt.of("generator", null, "load generator, installed or built when missing (see Generators below);\n"
            + "wrk for the closed model, oha for the open one, vegeta for\n"
            + "--rate-profile, spikes, faults and scenario mixes (either model: each\n"
            + "request measured apart; a scenario file names its own)").inScenario("load").withChoices(List.copyOf(ALL.keySet()));

    private Generators() {}

    public static Map<String, Supplier<Generator>> all() {
        return ALL;
    }

    /** The generators that send a scenario's weighted mix (wrk, vegeta, k6), in the registry's order. */
    public static List<String> sendingMixes() {
        return ALL.entrySet().stream().filter(e -> e.getValue().get().sendsMix()).map(Map.Entry::getKey).toList();
    }

    public static Generator byName(String name) throws UsageError {
        return ALL.get(OPTION.check(name)).get();
    }

    /**
     * The generator NAME set up from the run's options. An option of another generator's is refused in one line
     * rather than ignored (--ramp with wrk would otherwise measure a constant load while the user thinks it ramped).
     */
    public static Generator configured(String name, Options o) throws UsageError {
        Generator g = byName(name);
        List<String> own = g.options().stream().map(Opt::name).toList();
        for (Map.Entry<String, Supplier<Generator>> e : ALL.entrySet()) {
            for (Opt opt : e.getValue().get().options()) {
                if (opt.given(o) && !own.contains(opt.name())) {
                    throw new UsageError("--" + opt.name() + " is an option of generator " + e.getKey() + ", not of " + name
                            + ": add --generator " + e.getKey() + " or drop --" + opt.name());
                }
            }
        }
        return g.configure(o);
    }

    /** Every generator's own options (the run's option check knows them all, so the refusal above can name the owner). */
    public static List<Opt> options() {
        List<Opt> out = new ArrayList<>();
        for (Supplier<Generator> g : ALL.values()) out.addAll(g.get().options());
        return out;
    }

    /** The generators that declare they run from load agents (under this load model, or any when null), by name. */
    public static List<String> onAgents(LoadModel model) {
        List<String> out = new ArrayList<>();
        for (var e : ALL.entrySet()) {
            Generator g = e.getValue().get();
            if (g.fromAgents().filter(a -> model == null || a.models().contains(model)).isPresent()) out.add(e.getKey());
        }
        return out;
    }

    /** The run's generator (configured) run from the agents (vtlab.load.agent.AgentsGenerator); one agents cannot run is refused. */
    public static Generator overAgents(Generator tool, HostRun run, List<LoadAgent> agents) {
        return tool.fromAgents().orElseThrow(() -> new IllegalArgumentException("load agents run " + String.join(", ", onAgents(null)) + ", not " + tool.name()))
                .maker().over(run, agents);
    }
}
