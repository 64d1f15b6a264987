package vtlab.stack;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The data a stack's SUT needs in a run tier, as stack.json's "data" declares it: which tier holds it, the schema and
 * seed SQL files (beside stack.json; {size} placeholders), the seed's default sizes (a tier option "tier.size", e.g.
 * pg.orders, overrides one) and markers by which the tier's statement counts find the SUT's queries.
 */
public record StackData(String stack, String tier, Path schema, Path seed, Map<String, Long> sizes, Map<String, String> queries) {

    /** The marker of a query the stack declares, e.g. query("order-lookup"). */
    public String query(String name) {
        String q = queries.get(name);
        if (q == null) throw new IllegalStateException("stack " + stack + " declares no query '" + name + "' under data.queries");
        return q;
    }

    static Optional<StackData> parse(String stack, Path dir, JsonNode data) {
        if (data == null || data.isMissingNode() || data.isNull()) return Optional.empty();
        Map<String, Long> sizes = new LinkedHashMap<>();
        data.path("sizes").properties().forEach(e -> sizes.put(e.getKey(), e.getValue().asLong()));
        Map<String, String> queries = new LinkedHashMap<>();
        data.path("queries").properties().forEach(e -> queries.put(e.getKey(), e.getValue().asText()));
        return Optional.of(new StackData(stack, data.path("tier").asText(), dir.resolve(data.path("schema").asText()),
                dir.resolve(data.path("seed").asText()), Collections.unmodifiableMap(sizes),
                Collections.unmodifiableMap(queries)));
    }
}
