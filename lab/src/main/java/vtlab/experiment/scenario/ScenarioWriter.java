package vtlab.experiment.scenario;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import vtlab.core.Opt;
import vtlab.plan.RunOptions;
import vtlab.stack.Mix;
import vtlab.stack.Request;

/**
 * The one writer of a scenario file: a {@link Scenario} rendered as the commented TOML its reader reads back into the
 * same scenario (its name, options, requests with their weights and values, thresholds). Each option is written in
 * the table its declaration names ({@link Scenario#TABLES}), as its declared type writes it (a list option's comma
 * list as an array, an env option's K=V as an inline table); an option of no table goes to [overrides]. ./vtlab init,
 * the importer of an access log and the run folder's copy all write through it.
 */
public final class ScenarioWriter {
    private ScenarioWriter() {}

    /** Keys written as a commented default when the scenario does not set them (a hint of what can be said). */
    private static final Map<String, String> HINTS = new LinkedHashMap<>();

    static {
        HINTS.put("env", "env = { SPRING_PROFILES_ACTIVE = \"bench\" }  # the service's own settings, both modes");
        HINTS.put("start-timeout", "start-timeout = \"120s\"");
        HINTS.put("port", "port = " + RunOptions.DEFAULT_PORT);
        HINTS.put("load-model", "load-model = \"open\"     # with rates = [200]: the open model (conc: the closed model's connections)");
        HINTS.put("generator", "generator = \"vegeta\"   # vegeta (the default, both models: each request's own p50/p99) or wrk (closed, less CPU, the whole load only); k6 too, opt-in; oha and hey cannot");
        HINTS.put("jdk", "jdk = [\"25\"]");
    }

    /**
     * The file's text.
     *
     * @param header   comment lines written first (without the '#')
     * @param base     the folder written as base = "...", null for none (paths then relative to the file's folder)
     * @param csvNames each CSV file's name as the file writes it, by the path its values were read from
     */
    public static String text(Scenario sc, List<String> header, Path base, Map<Path, String> csvNames) {
        StringBuilder sb = new StringBuilder();
        for (String h : header) sb.append(h.isEmpty() ? "#" : "# " + h).append('\n');
        sb.append("# Every key of [service], [load], [run] and [slo] is the command-line option of the same name (docs/scenarios.md);\n")
                .append("# an option given on the command line beside the file overrides the file's.\n");
        sb.append("name = ").append(quote(sc.name())).append('\n');
        if (base != null) sb.append("base = ").append(quote(base.toString())).append('\n');
        if (sc.baseline() != null) {
            sb.append("# the access log's baseline: what a replay's fidelity is measured against (fidelity_* thresholds)\n")
                    .append("baseline = ").append(quote(sc.baseline())).append('\n');
        }
        Map<String, List<String>> rest = new LinkedHashMap<>(sc.options());
        for (var table : Scenario.TABLES.entrySet()) {
            sb.append("\n[").append(table.getKey()).append("]\n");
            for (Opt o : table.getValue().values()) {
                if (o == Scenario.THRESHOLDS_KEY) continue;
                List<String> values = rest.remove(o.name());
                if (values != null) sb.append(o.name()).append(" = ").append(value(o.type(), values)).append('\n');
                else if (HINTS.containsKey(o.name())) sb.append("# ").append(HINTS.get(o.name())).append('\n');
            }
            if (table.getKey().equals("slo")) thresholds(sb, sc.thresholds());
        }
        sb.append("\n# The requests, sent as one weighted mix within each load; {name}: a value drawn per request from [values].\n");
        for (Mix.Entry e : sc.mix().entries()) request(sb, e);
        if (!sc.mix().values().isEmpty()) {
            sb.append("\n[values]\n");
            for (var v : sc.mix().values().entrySet()) {
                sb.append(v.getKey()).append(" = ").append(switch (v.getValue()) {
                    case Mix.Range r -> "{ from = " + r.from() + ", to = " + r.to() + " }";
                    case Mix.Column c -> "{ csv = " + quote(csvNames.getOrDefault(c.file(), c.file().toString())) + ", column = " + quote(c.column()) + " }";
                    case Mix.Env e -> "{ env = " + quote(e.variable()) + " }"; // the variable's name only, never its value
                }).append('\n');
            }
        }
        if (sc.mix().values().isEmpty()) {
            sb.append("""

                    # [[requests]]
                    # name = "owner"
                    # path = "/owners/{id}"   # {id}: drawn per request from [values]
                    # weight = 3
                    #
                    # [values]
                    # id = { from = 1, to = 10 }                     # or { csv = "owners.csv", column = "id" }
                    """);
        }
        if (!rest.isEmpty()) {
            sb.append("\n[overrides]\n");
            rest.forEach((k, v) -> sb.append(bare(k)).append(" = ").append(value(Opt.Type.REPEATED, v)).append('\n'));
        }
        return sb.toString();
    }

    private static void thresholds(StringBuilder sb, List<Threshold> thresholds) {
        sb.append("thresholds = [\n");
        for (Threshold t : thresholds) sb.append("  ").append(quote(t.text())).append(",\n");
        if (thresholds.isEmpty()) {
            sb.append("""
                      # "p99_ms[virtual] <= 100",
                      # "error_rate < 0.1%",
                      # "throughput_rps[virtual] >= 1.2 * throughput_rps[platform]",
                    """);
        }
        sb.append("]\n");
    }

    private static void request(StringBuilder sb, Mix.Entry e) {
        sb.append("\n[[requests]]\nname = ").append(quote(e.name())).append("\nmethod = ").append(quote(e.method()))
                .append("\npath = ").append(quote(e.path())).append('\n');
        if (!e.headers().isEmpty()) {
            Map<String, String> h = new LinkedHashMap<>();
            for (Request.Header x : e.headers()) h.put(x.name(), x.value());
            sb.append("headers = ").append(table(h)).append('\n');
        }
        if (e.body() != null) sb.append("body = ").append(quote(e.body())).append('\n');
        sb.append("expect-status = ").append(e.expectStatus() < 10 ? quote(e.expectStatus() + "xx") : Integer.toString(e.expectStatus())).append('\n');
        if (!e.expectBody().isEmpty()) sb.append("expect-body = ").append(quote(e.expectBody())).append('\n');
        sb.append("weight = ").append(e.weight()).append('\n');
    }

    /** An option's values as its type writes them (the reader's {@code values} the other way round). */
    static String value(Opt.Type type, List<String> values) {
        return switch (type) {
            case STRING -> quote(values.getLast());
            case INT -> number(values.getLast());
            case FLAG -> values.isEmpty() || Boolean.parseBoolean(values.getLast()) ? "true" : "false";
            case ENV -> {
                Map<String, String> env = new LinkedHashMap<>();
                for (String kv : values) {
                    int eq = kv.indexOf('=');
                    env.put(eq < 0 ? kv : kv.substring(0, eq), eq < 0 ? "" : kv.substring(eq + 1));
                }
                yield table(env);
            }
            case STRINGS, INTS, NUMBERS -> {
                List<String> items = new ArrayList<>();
                for (String v : values) for (String x : v.split(",", -1)) items.add(type == Opt.Type.STRINGS ? quote(x) : number(x));
                yield "[" + String.join(", ", items) + "]";
            }
            case REPEATED -> "[" + String.join(", ", values.stream().map(ScenarioWriter::quote).toList()) + "]";
        };
    }

    /** A number as TOML writes one; any other text quoted (the reader then says what is wrong with it, at its line). */
    private static String number(String s) {
        return s.strip().matches("-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?") ? s.strip() : quote(s);
    }

    private static String bare(String key) {
        return key.matches("[A-Za-z0-9_-]+") ? key : quote(key);
    }

    /** A TOML inline table of strings; keys quoted unless bare. */
    public static String table(Map<String, String> entries) {
        List<String> parts = new ArrayList<>();
        entries.forEach((k, v) -> parts.add(bare(k) + " = " + quote(v)));
        return "{ " + String.join(", ", parts) + " }";
    }

    /** A TOML basic string. */
    public static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '"' -> sb.append("\\\"");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> sb.append(c < 0x20 || c == 0x7f ? String.format("\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        return sb.append('"').toString();
    }
}
