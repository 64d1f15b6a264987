package vtlab.proc;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

import vtlab.core.Secrets;

/**
 * Environment variables handed to a process (the SUT, a tier, a tool's build): name to value, in the order given,
 * immutable. A variant is made with {@link #with} or {@link #merge} (the later value of a name wins, as a
 * ProcessBuilder's environment().putAll would); {@link #asMap()} is for the boundary where a process is started.
 */
public final class Env {
    private static final Env NONE = new Env(Map.of());
    private final Map<String, String> vars;

    private Env(Map<String, String> vars) {
        this.vars = vars;
    }

    /** No variables. */
    public static Env of() {
        return NONE;
    }

    /** These variables, in the map's order (copied). */
    public static Env of(Map<String, String> vars) {
        return vars.isEmpty() ? NONE : new Env(Collections.unmodifiableMap(new LinkedHashMap<>(vars)));
    }

    /** One variable. */
    public static Env of(String name, String value) {
        return NONE.with(name, value);
    }

    /** This environment with one variable set (replaced where it is already set, keeping its place). */
    public Env with(String name, String value) {
        Map<String, String> m = new LinkedHashMap<>(vars);
        m.put(name, value);
        return new Env(Collections.unmodifiableMap(m));
    }

    /** This environment with another's variables over it (the other's value wins where both set a name). */
    public Env merge(Env other) {
        if (other.vars.isEmpty()) return this;
        if (vars.isEmpty()) return other;
        Map<String, String> m = new LinkedHashMap<>(vars);
        m.putAll(other.vars);
        return new Env(Collections.unmodifiableMap(m));
    }

    /** A variable's value, or null where it is not set. */
    public String get(String name) {
        return vars.get(name);
    }

    public boolean isEmpty() {
        return vars.isEmpty();
    }

    public Set<String> names() {
        return vars.keySet();
    }

    public void forEach(BiConsumer<String, String> action) {
        vars.forEach(action);
    }

    /** The environment as a log line shows it: secret values masked ({@link Secrets#env}). */
    public String shown() {
        return Secrets.env(vars).toString();
    }

    /** The variables as an unmodifiable map, for a ProcessBuilder's environment() or a log line. */
    public Map<String, String> asMap() {
        return vars;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Env e && vars.equals(e.vars);
    }

    @Override
    public int hashCode() {
        return vars.hashCode();
    }

    /** As a map prints: {K=V, ...}. */
    @Override
    public String toString() {
        return vars.toString();
    }
}
