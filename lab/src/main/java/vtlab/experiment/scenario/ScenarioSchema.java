package vtlab.experiment.scenario;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import vtlab.core.Opt;

/**
 * The JSON Schema of a scenario file (docs/scenario.schema.json, for editors), derived from the declarations: each key
 * of [service], [load], [run] and [slo] is the option {@link Scenario#TABLES} gives that table, of its declared type,
 * described by its help, so a new option is in the schema with no edit of it. Only the file's own structure (the
 * requests, the values, the overrides) is written here, beside {@link Scenario}'s reader of it.
 * ScenarioTest holds docs/scenario.schema.json to this text (and writes the text beside it when they differ).
 */
public final class ScenarioSchema {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    /** What a duration option's value looks like (its default parses as one: "20s"). */
    static final String DURATION = "^[0-9]+(ms|s|m|h)?$";

    private ScenarioSchema() {}

    /** The schema, pretty-printed with a final newline (what the docs file holds). */
    public static String text() {
        try {
            return JSON.writeValueAsString(schema()) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static ObjectNode schema() {
        ObjectNode s = JSON.createObjectNode();
        s.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        s.put("$id", "https://github.com/vtlab/vtlab/docs/scenario.schema.json");
        s.put("title", "vtlab scenario file (docs/scenarios.md)");
        s.put("description", "A service under a weighted mix of requests, with the load, modes, JDKs and thresholds; every key of "
                + "service, load, run and slo (but thresholds) is the command-line option of the same name.");
        s.put("type", "object");
        s.put("additionalProperties", false);
        s.putArray("required").add("service").add("requests");
        ObjectNode p = s.putObject("properties");
        p.set("name", described(type("string"), "the scenario's name (default: the file's name)"));
        p.set("base", described(type("string"), "the folder relative paths are taken from (default: the file's folder)"));
        p.set("baseline", described(type("string"), "the access log's baseline a replay's fidelity is measured against (./vtlab init --from-log writes NAME-baseline.json)"));
        for (Map.Entry<String, Map<String, Opt>> t : Scenario.TABLES.entrySet()) {
            ObjectNode table = type("object");
            table.put("additionalProperties", false);
            if (t.getKey().equals("service")) {
                table.put("description", "the service: one of stack, app, cmd");
                ArrayNode one = table.putArray("oneOf");
                for (String k : List.of("stack", "app", "cmd")) one.addObject().putArray("required").add(k);
            }
            ObjectNode keys = table.putObject("properties");
            for (Opt o : t.getValue().values()) keys.set(o.name(), key(o));
            p.set(t.getKey(), table);
        }
        p.set("requests", requests());
        p.set("values", values());
        ObjectNode overrides = described(type("object"), "options given on the command line beside the file (written by the lab into a run folder's copy)");
        ArrayNode any = overrides.putObject("additionalProperties").putArray("oneOf");
        any.add(type("string"));
        any.addObject().put("type", "array").set("items", type("string"));
        p.set("overrides", overrides);
        return s;
    }

    /**
     * A key of a table: the option's type as a file writes it (a list type: one value or an array of them), each value
     * one of its choices where it declares them.
     */
    static ObjectNode key(Opt o) {
        if (o == Scenario.THRESHOLDS_KEY) {
            ObjectNode n = type("array");
            n.set("items", type("string"));
            return described(n, "what must hold for the run to pass, e.g. \"p99_ms[virtual] <= 150\" (docs/scenarios.md)");
        }
        ObjectNode one = switch (o.type()) {
            case INT, INTS -> minimum(type("integer"), 1);
            case NUMBERS -> type("number");
            case FLAG -> type("boolean");
            case ENV -> {
                ObjectNode env = type("object");
                env.set("additionalProperties", type("string"));
                yield env;
            }
            case STRING, STRINGS, REPEATED -> {
                ObjectNode str = type("string");
                if (o.name().equals("jdk")) str.putArray("type").add("string").add("integer"); // jdk = [21, 25], as the reader takes it
                if (o.dflt() != null && o.dflt().matches(DURATION) && !o.dflt().matches("[0-9]+")) str.put("pattern", DURATION);
                // a file writes a list of choices as an array of them (modes = ["platform", "virtual"]), or one
                if (!o.choices().isEmpty()) {
                    ArrayNode words = str.putArray("enum");
                    o.choices().forEach(words::add);
                }
                yield str;
            }
        };
        ObjectNode n = switch (o.type()) {
            case STRINGS, REPEATED, INTS, NUMBERS -> {
                ObjectNode list = JSON.createObjectNode();
                ArrayNode of = list.putArray("oneOf");
                of.add(one);
                ObjectNode arr = of.addObject().put("type", "array");
                arr.set("items", one.deepCopy());
                arr.put("minItems", 1);
                yield list;
            }
            default -> one;
        };
        String help = o.help().replace('\n', ' ');
        return described(n, o.dflt() == null ? help : help + " (default " + o.dflt() + ")");
    }

    static ObjectNode requests() {
        ObjectNode item = type("object");
        item.put("additionalProperties", false);
        item.putArray("required").add("path");
        ObjectNode k = item.putObject("properties");
        ObjectNode name = type("string");
        name.put("pattern", "^[A-Za-z0-9_./-]+$");
        k.set("name", described(name, "its name in the results (default: the path up to ? or {)"));
        ObjectNode method = JSON.createObjectNode();
        ArrayNode methods = method.putArray("enum");
        Scenario.METHODS.stream().sorted().forEach(m -> methods.add(m).add(m.toLowerCase(java.util.Locale.ROOT)));
        k.set("method", described(method, "default GET"));
        ObjectNode path = type("string");
        path.put("pattern", "^/");
        k.set("path", described(path, "path on the service; {name} placeholders from [values]"));
        ObjectNode headers = type("object");
        headers.set("additionalProperties", type("string"));
        k.set("headers", described(headers, "headers sent with it"));
        k.set("body", described(type("string"), "its body (placeholders filled); not with GET or HEAD"));
        ObjectNode status = JSON.createObjectNode();
        ArrayNode st = status.putArray("oneOf");
        st.add(type("integer").put("minimum", 100).put("maximum", 599));
        st.addObject().put("const", "2xx");
        k.set("expect-status", described(status, "the status before load (default 2xx)"));
        k.set("expect-body", described(type("string"), "a regex the body must match before load"));
        k.set("weight", described(minimum(type("integer"), 1).put("maximum", Scenario.MAX_TOTAL_WEIGHT), "its share of the mix (default 1)"));
        ObjectNode r = type("array");
        r.put("minItems", 1);
        r.put("description", "the weighted mix, sent within one load");
        r.set("items", item);
        return r;
    }

    static ObjectNode values() {
        ObjectNode v = described(type("object"), "each placeholder's values");
        v.putObject("propertyNames").put("pattern", "^[A-Za-z][A-Za-z0-9_]*$");
        ArrayNode kinds = v.putObject("additionalProperties").putArray("oneOf");
        kinds.add(fields(List.of("from", "to"), "integer", "a whole number drawn uniformly, both ends included"));
        kinds.add(fields(List.of("csv", "column"), "string", "a row of the CSV file per request"));
        kinds.add(fields(List.of("env"), "string", "the value of this environment variable (a secret kept out of the file); the run refuses it unset"));
        return v;
    }

    private static ObjectNode fields(List<String> names, String type, String description) {
        ObjectNode n = type("object");
        n.put("additionalProperties", false);
        ArrayNode req = n.putArray("required");
        ObjectNode props = n.putObject("properties");
        for (String f : names) {
            req.add(f);
            props.set(f, type(type));
        }
        return described(n, description);
    }

    private static ObjectNode type(String t) {
        return JSON.createObjectNode().put("type", t);
    }

    private static ObjectNode minimum(ObjectNode n, int min) {
        return n.put("minimum", min);
    }

    private static ObjectNode described(ObjectNode n, String d) {
        return n.put("description", d);
    }
}
