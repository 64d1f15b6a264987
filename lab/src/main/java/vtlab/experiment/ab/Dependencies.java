package vtlab.experiment.ab;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.plan.Row;
import vtlab.proc.Env;
import vtlab.tier.Tiers;
import vtlab.tier.ExternalDependency;
import vtlab.tier.ToxiproxyTier;

/**
 * --dependency NAME=host:port: a dependency of the user's service (its database, a downstream API) put behind the
 * lab's fault proxy, so --fault NAME:latency=…@… or NAME:down@… acts on it. The service is told the proxy's address
 * through the --env settings that held the dependency's: the address must appear in one, or the service would not
 * go through the proxy and a fault would change nothing (refused).
 */
final class Dependencies {
    static final Opt DEPENDENCY = Opt.of("dependency", null, "NAME=host:port of a dependency of the service (repeatable): a Toxiproxy in front\n"
            + "of it, the --env holding host:port given the proxy's address; then --fault NAME:latency=2s@10s-30s").typed(Opt.Type.REPEATED).inScenario("service");
    /** Names --fault or the core map already use for the lab's own tiers (db is the lab's database in --fault). */
    static final Set<String> RESERVED = Set.of("app", "load", "pg", "db", "stub", ToxiproxyTier.NAME);

    record Dependency(String name, String endpoint, Env env) {}

    private Dependencies() {}

    /** Parsed and checked against the service's --env; empty without --dependency. */
    static List<Dependency> parse(Options o, Env serviceEnv) throws UsageError {
        if (!DEPENDENCY.given(o)) return List.of();
        List<Dependency> out = new ArrayList<>();
        for (String spec : DEPENDENCY.every(o)) {
            int eq = spec.indexOf('=');
            String name = eq < 0 ? "" : spec.substring(0, eq).trim(), endpoint = eq < 0 ? "" : spec.substring(eq + 1).trim();
            if (!name.matches("[a-z][a-z0-9-]*") || !endpoint.matches("[A-Za-z0-9.\\-]+:\\d{1,5}")) {
                throw new UsageError("--dependency " + spec + ": write NAME=host:port, NAME in lower case (e.g. --dependency orders-db=127.0.0.1:5432)");
            }
            if (RESERVED.contains(name)) throw new UsageError("--dependency " + spec + ": " + name + " names one of the lab's own tiers; call it e.g. " + name + "-svc");
            if (out.stream().anyMatch(d -> d.name().equals(name))) throw new UsageError("--dependency " + name + " is given twice");
            Env env = Env.NONE;
            for (String k : serviceEnv.names()) if (serviceEnv.get(k).contains(endpoint)) env = env.with(k, serviceEnv.get(k));
            if (env.isEmpty()) {
                throw new UsageError("--dependency " + spec + ": no --env of the service holds " + endpoint + ", so it would not go through the proxy"
                        + " (e.g. --env DB_URL=jdbc:postgresql://" + endpoint + "/app)");
            }
            out.add(new Dependency(name, endpoint, env));
        }
        return List.copyOf(out);
    }

    /** Each dependency as a run tier the runner can start (nothing to start: see ExternalDependency). */
    static void register(List<Dependency> deps) {
        for (Dependency d : deps) Tiers.register(d.name(), () -> new ExternalDependency(d.name(), d.endpoint(), d.env()));
    }

    /** The row with its dependencies, then the proxy (started after what it fronts), among its tiers. */
    static Row withDependencies(Row r, List<Dependency> deps) {
        if (deps.isEmpty()) return r;
        List<String> tiers = new ArrayList<>(r.tiers());
        deps.forEach(d -> tiers.add(d.name()));
        tiers.add(ToxiproxyTier.NAME);
        return r.withTiers(tiers);
    }
}
