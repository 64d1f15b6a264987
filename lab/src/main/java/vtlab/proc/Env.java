package vtlab.proc;

import java.util.Map;

import vtlab.core.NamedValues;
import vtlab.core.Secrets;

/**
 * Environment variables handed to a process (the SUT, a tier, a tool's build, a generator), name to value in the
 * order given, immutable. Variants are made with {@link #with} and {@link #merge} (the later value of a name wins, as
 * a ProcessBuilder's environment().putAll would); {@link #asMap()} only where a process is started.
 */
public final class Env extends NamedValues<Env> {
    /** No variables. */
    public static final Env NONE = new Env(Map.of());

    /** These variables, in the map's order (copied). */
    public Env(Map<String, String> vars) {
        super(vars, Env::new);
    }

    /** The environment as a log line shows it: secret values masked ({@link Secrets#env}). */
    public String shown() {
        return Secrets.env(asMap()).toString();
    }
}
