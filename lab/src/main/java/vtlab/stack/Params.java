package vtlab.stack;

import java.util.Map;
import java.util.stream.Collectors;

import vtlab.core.NamedValues;

/**
 * A row's params: the values of its workload's placeholders ({sleepMs} in a path, a mix's drawn values) and the
 * knobs that name its scenario (maxThreads=200, fault=..., build=...), in the order given, immutable. They fill the
 * workload's templates ({@link Stack.Workload#pathFor}) and are written to the dataset's params cell as {@link #cell()}.
 */
public final class Params extends NamedValues<Params> {
    /** No params. */
    public static final Params NONE = new Params(Map.of());

    /** These params, in the map's order (copied). */
    public Params(Map<String, String> values) {
        super(values, Params::new);
    }

    /** The dataset's params cell: "name=value;name=value" in order ({@code vtlab.data.DataRow#param} reads it back). */
    public String cell() {
        return asMap().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(";"));
    }
}
