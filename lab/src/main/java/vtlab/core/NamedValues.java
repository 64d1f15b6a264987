package vtlab.core;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Text values by name, in the order given, immutable: what the lab's typed name-value sets ({@code vtlab.proc.Env},
 * {@code vtlab.stack.Params}, {@code vtlab.stack.Settings}) share, each a type of its own so that one is never passed
 * where another is meant. A variant is made with {@link #with} or {@link #merge}; {@link #asMap()} is for a boundary
 * that takes a map (a ProcessBuilder's environment, a JSON field).
 *
 * @param <T> the set's own type, which {@link #with} and {@link #merge} give back
 */
public abstract class NamedValues<T extends NamedValues<T>> {
    private final Map<String, String> values;
    private final Function<Map<String, String>, T> make;

    /** @param make the set's constructor, for its variants */
    protected NamedValues(Map<String, String> values, Function<Map<String, String>, T> make) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        this.make = make;
    }

    /** This set with one value set: a new name last, a name already set keeping its place. */
    public T with(String name, String value) {
        Map<String, String> m = new LinkedHashMap<>(values);
        m.put(name, value);
        return make.apply(m);
    }

    /** This set with another's values over it, in its order after this one's (the other's value wins where both set a name). */
    public T merge(T other) {
        Map<String, String> m = new LinkedHashMap<>(values);
        m.putAll(other.asMap());
        return make.apply(m);
    }

    /** A value, or null where the name is not set. */
    public String get(String name) {
        return values.get(name);
    }

    public String getOrDefault(String name, String dflt) {
        return values.getOrDefault(name, dflt);
    }

    public boolean containsKey(String name) {
        return values.containsKey(name);
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    /** The names set, in order. */
    public Set<String> names() {
        return values.keySet();
    }

    public void forEach(BiConsumer<String, String> action) {
        values.forEach(action);
    }

    /** The values as an unmodifiable map, in order. */
    public Map<String, String> asMap() {
        return values;
    }

    /** Equal: a set of the same type with the same values (the order does not count, as a map's equality). */
    @Override
    public boolean equals(Object o) {
        return o != null && o.getClass() == getClass() && values.equals(((NamedValues<?>) o).values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    /** As a map prints: {name=value, ...}. */
    @Override
    public String toString() {
        return values.toString();
    }
}
