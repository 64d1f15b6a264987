package vtlab.stack;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;

/**
 * A row's params: the values of its workload's placeholders ({sleepMs} in a path) and the knobs that name its
 * scenario (maxThreads=200, fault=..., build=...), in the order they were given, immutable. They fill the workload's
 * templates ({@link Stack.Workload#pathFor}) and are written to the dataset's params cell as {@link #cell()}.
 */
public final class Params {
    private static final Params NONE = new Params(Map.of());
    private final Map<String, String> values;

    private Params(Map<String, String> values) {
        this.values = values;
    }

    /** No params. */
    public static Params of() {
        return NONE;
    }

    /** These params, in the map's order (copied). */
    public static Params of(Map<String, String> values) {
        return values.isEmpty() ? NONE : new Params(Collections.unmodifiableMap(new LinkedHashMap<>(values)));
    }

    /** One param. */
    public static Params of(String name, String value) {
        return NONE.with(name, value);
    }

    /** These params with one set: a new name last, a name already set keeping its place. */
    public Params with(String name, String value) {
        Map<String, String> m = new LinkedHashMap<>(values);
        m.put(name, value);
        return new Params(Collections.unmodifiableMap(m));
    }

    /** These params with another's after them (the other's value wins where both name one). */
    public Params withAll(Params more) {
        Map<String, String> m = new LinkedHashMap<>(values);
        m.putAll(more.values);
        return of(m);
    }

    /** A param's value, or null where it is not set. */
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

    public void forEach(BiConsumer<String, String> action) {
        values.forEach(action);
    }

    /** The dataset's params cell: "name=value;name=value" in order ({@code vtlab.data.DataRow#param} reads it back). */
    public String cell() {
        return values.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(";"));
    }

    /** The params as an unmodifiable map (a stack's settings are given as one: {@link Stack#configure}). */
    public Map<String, String> asMap() {
        return values;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Params p && values.equals(p.values);
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
