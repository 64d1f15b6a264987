package vtlab.experiment.scenario;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;

import vtlab.core.Opt;
import vtlab.core.UsageError;
import vtlab.data.DataRow;
import vtlab.plan.PlanContext;
import vtlab.plan.RunOptions;
import vtlab.data.Column;
import vtlab.stack.Mix;
import vtlab.stack.Request;

/**
 * A scenario file (docs/scenarios.md; its JSON Schema docs/scenario.schema.json): the service, a weighted mix of
 * requests with values drawn per request, the load, the modes and JDKs, the SLO and the thresholds that decide the
 * exit code, as TOML. Every key but the requests, the values and the thresholds is a command-line option of the same
 * name, meaning and default ([load] hold = "20s" is --hold 20s), each declared once ({@link Opt}: its name, type and
 * table); the file becomes those options by name ({@link #options}: its values checked against the option's type, never
 * turned into command-line words),
 * under the ones given beside it on the command line. Everything wrong in it is refused here, before anything starts,
 * in one line: the file, the line and the key (an unknown key, a wrong type, a weight of 0, a CSV without the column a
 * path names, a threshold on a metric that does not exist). The scenario is a typed value: the reader fills it,
 * ./vtlab init and the importer of an access log build it ({@link #of}), and {@link ScenarioWriter} alone writes it
 * as a file (a run folder's copy too); read, written and read again it is the same scenario.
 *
 * @param file       the file it was read from (null: built, not read)
 * @param options    the options the file sets, by name, each its values as the option takes them (hold: ["20s"];
 *                   conc: ["50,200"]; fault: one value each), in file order
 * @param mix        the requests and their values
 * @param thresholds what must hold for the run to pass (exit code 99 when one does not)
 * @param csvFiles   the CSV files the values come from, as written in the file (relative to {@link #base}) and resolved
 * @param baseline   the access log's baseline a replay is compared with ({@link Baseline}, ./vtlab init --from-log writes
 *                   it beside the file), as written in the file (relative to {@link #base}); null: none
 */
public record Scenario(Path file, String name, Map<String, List<String>> options, Mix mix, List<Threshold> thresholds,
                       Path base, Map<String, Path> csvFiles, String baseline) {
    /**
     * The tables of the file and their keys: each the option of the same name, with the type it declares; derived from
     * the declarations of what a scenario run takes (the scenario experiment's options, the load model's and the lab's
     * own, {@link RunOptions} and --generator), each where its declaration names its table ({@link Opt#inScenario}), in their order.
     */
    static final Map<String, Map<String, Opt>> TABLES = new LinkedHashMap<>();

    /** The thresholds: a key of [slo] that is not a command-line option of its own (thresholds are the file's). */
    static final Opt THRESHOLDS_KEY = Opt.of("thresholds", null, "what must hold for the run to pass").typed(Opt.Type.REPEATED).inScenario("slo");

    static {
        for (String t : List.of("service", "load", "run", "slo")) TABLES.put(t, new LinkedHashMap<>());
        List<Opt> known = new ArrayList<>(new ScenarioExperiment().options());
        known.addAll(PlanContext.LOAD_OPTIONS);
        known.addAll(RunOptions.ALL);
        // a file's [load] generator: only those that send a mix (the schema's enum; the run refuses the others in one line)
        known.add(vtlab.load.generator.Generators.OPTION.withChoices(vtlab.load.generator.Generators.sendingMixes()));
        known.add(THRESHOLDS_KEY);
        Set<String> seen = new LinkedHashSet<>();
        for (Opt o : known) {
            if (!seen.add(o.name()) || o.table() == null) continue;
            Map<String, Opt> table = TABLES.get(o.table());
            if (table == null) throw new IllegalStateException("option --" + o.name() + " names no table of a scenario file: " + o.table());
            table.put(o.name(), o);
        }
    }

    static final Set<String> REQUEST_KEYS = new LinkedHashSet<>(List.of("name", "method", "path", "headers", "body", "expect-status",
            "expect-body", "weight"));
    static final Set<String> TOP = new LinkedHashSet<>(List.of("name", "base", "baseline", "requests", "values", "overrides", "service", "load", "run", "slo"));
    /** The most the weights may add up to: one cycle of the round robin is held in k6's script. */
    static final int MAX_TOTAL_WEIGHT = 100_000;
    static final Set<String> METHODS = Set.of("GET", "HEAD", "DELETE", "OPTIONS", "POST", "PUT", "PATCH");

    /** The thresholds' option: not a command-line option of its own (thresholds are the file's). */
    static final String THRESHOLDS = "thresholds";

    /** Reads and checks a scenario file; every mistake is one line naming the file, the line and the key. */
    public static Scenario read(Path file, Map<String, String> metrics) throws UsageError {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            throw new UsageError(file + ": cannot read it (" + (e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.getMessage()) + ")");
        }
        return new Reader(file, text, metrics).scenario();
    }

    /**
     * A scenario built, not read (./vtlab init, the importer of an access log): no file yet, its CSV files named as
     * the writer writes them, relative to the folder it is written in.
     */
    public static Scenario of(String name, Map<String, List<String>> options, Mix mix, List<Threshold> thresholds, Map<String, Path> csvFiles) {
        return new Scenario(null, name, options, mix, List.copyOf(thresholds), null, csvFiles, null);
    }

    /** This scenario compared with an access log's baseline (the file's name, relative to its folder or base). */
    public Scenario withBaseline(String name) {
        return new Scenario(file, this.name, options, mix, thresholds, base, csvFiles, name);
    }

    /** The baseline file, resolved; null when the scenario names none. */
    public Path baselinePath() {
        if (baseline == null) return null;
        return (base != null ? base : file != null ? file.toAbsolutePath().getParent() : Path.of("")).resolve(baseline).normalize();
    }

    /** The file's text as read again (a refusal's line), "" when it has none or cannot be read now. */
    private String fileText() {
        try {
            return file == null ? "" : Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** Each CSV file's name as this scenario writes it, by the path its values were read from. */
    public Map<Path, String> csvNames() {
        Map<Path, String> out = new LinkedHashMap<>();
        csvFiles.forEach((name, path) -> out.put(path, name));
        return out;
    }

    /** The file's options as defaults of single values (a repeatable option's values comma-joined where it takes a list). */
    public Map<String, String> defaults() {
        Map<String, String> out = new LinkedHashMap<>();
        options.forEach((k, v) -> out.put(k, v.getLast()));
        return out;
    }

    /** The options the file sets, by name (in file order). */
    public Set<String> optionNames() {
        return options.keySet();
    }

    /** The numeric columns a threshold may name, the generator's and every probe's, each with its unit. */
    public static Map<String, String> metrics(List<Column> columns) {
        Map<String, String> out = new java.util.TreeMap<>();
        for (Column c : columns) if (c.kind() == Column.Kind.NUMBER || c.kind() == Column.Kind.INTEGER) out.put(c.name(), c.unit());
        return out;
    }

    /**
     * Refused in one line before anything starts: a threshold on a thread mode the run has no row of (a misspelt mode
     * would never be measured), naming the modes it has.
     */
    public void refuseModes(java.util.Collection<String> modes) throws UsageError {
        TomlLines lines = new TomlLines(fileText());
        for (Threshold t : thresholds) {
            for (String m : java.util.Arrays.asList(t.mode(), t.refMode())) {
                if (m == null || modes.contains(m)) continue;
                throw new UsageError(file + ":" + lines.lineOf(SLO_THRESHOLDS, t.text()) + ": " + SLO_THRESHOLDS + ": '" + t.text() + "': the run has no "
                        + m + " rows (its modes: " + String.join(", ", modes) + ")");
            }
        }
    }

    /**
     * Refused in one line before anything starts: a value the user supplies in an environment variable (a secret an
     * access log's import masked) whose variable is not set; the run would otherwise send a placeholder, not the value.
     */
    public void refuseUnsetEnv() throws UsageError {
        TomlLines lines = new TomlLines(fileText());
        for (var v : mix.values().entrySet()) {
            if (v.getValue() instanceof Mix.Env e && e.value() == null) {
                throw new UsageError(file + ":" + lines.line("values." + v.getKey()) + ": values." + v.getKey() + ": the environment variable " + e.variable()
                        + " is not set: it holds the value {" + v.getKey() + "} is sent with (export " + e.variable() + "=...)");
            }
        }
    }

    /** The key thresholds are written under. */
    static final String SLO_THRESHOLDS = "slo.thresholds";

    /** The reader of one file: the tree, the lines, and the refusal naming file:line: key. */
    private static final class Reader {
        final Path file;
        final String text;
        final TomlLines lines;
        final Map<String, String> metrics;
        JsonNode root;

        Reader(Path file, String text, Map<String, String> metrics) {
            this.file = file;
            this.text = text;
            this.lines = new TomlLines(text);
            this.metrics = metrics;
        }

        UsageError bad(String key, String message) {
            return bad(lines.line(key), key, message);
        }

        UsageError bad(int line, String key, String message) {
            return new UsageError(file + ":" + line + ": " + key + ": " + message);
        }

        Scenario scenario() throws UsageError {
            try {
                root = new TomlMapper().readTree(text);
            } catch (JsonProcessingException e) {
                var at = e.getLocation();
                throw new UsageError(file + ":" + (at == null || at.getLineNr() < 1 ? 1 : at.getLineNr()) + ": not valid TOML: "
                        + e.getOriginalMessage().lines().findFirst().orElse("").strip());
            }
            if (root == null || !root.isObject()) throw new UsageError(file + ":1: the file is empty: it needs a [service] and [[requests]]");
            for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                if (!TOP.contains(k)) throw bad(k, "unknown key (the file has " + String.join(", ", TOP) + ")");
            }
            String name = root.has("name") ? string("name", root.get("name")) : file.getFileName().toString().replaceFirst("\\.toml$", "");
            Path dir = file.toAbsolutePath().normalize().getParent();
            Path base = root.has("base") ? dir.resolve(string("base", root.get("base"))).normalize() : dir;
            Map<String, List<String>> words = new LinkedHashMap<>();
            List<Threshold> thresholds = new ArrayList<>();
            for (var table : TABLES.entrySet()) {
                JsonNode t = root.get(table.getKey());
                if (t == null) continue;
                if (!t.isObject()) throw bad(table.getKey(), "must be a table ([" + table.getKey() + "])");
                for (Iterator<Map.Entry<String, JsonNode>> it = t.fields(); it.hasNext(); ) {
                    var f = it.next();
                    String key = table.getKey() + "." + f.getKey();
                    Opt opt = table.getValue().get(f.getKey());
                    if (opt == null) {
                        throw bad(key, "unknown key (" + table.getKey() + " has " + String.join(", ", table.getValue().keySet()) + ")");
                    }
                    List<String> values = values(key, opt.type(), f.getValue());
                    if (f.getKey().equals(THRESHOLDS)) {
                        for (String v : values) {
                            try {
                                thresholds.add(Threshold.parse(v, metrics));
                            } catch (IllegalArgumentException e) {
                                throw bad(lines.lineOf(key, v), key, e.getMessage());
                            }
                        }
                    } else {
                        words.put(f.getKey(), values);
                    }
                }
            }
            JsonNode svc = root.get("service");
            int given = 0;
            for (String k : List.of("stack", "app", "cmd")) if (svc != null && svc.has(k)) given++;
            if (given != 1) throw bad("service", "say the service with one of stack = \"servlet\" (a lab stack), app = \"x.jar\" or cmd = \"...\"");
            if (svc.has("app") || svc.has("cmd")) {
                String k = svc.has("app") ? "app" : "cmd";
                String v = words.get(k).getFirst();
                if (k.equals("app")) words.put(k, List.of(base.resolve(v).normalize().toString()));
            }
            JsonNode o = root.get("overrides");
            if (o != null) {
                if (!o.isObject()) throw bad("overrides", "must be a table of options given beside the file ([overrides] conc = \"50\")");
                for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                    var f = it.next();
                    words.put(f.getKey(), values("overrides." + f.getKey(), Opt.Type.REPEATED, f.getValue()));
                }
            }
            Map<String, Path> csvFiles = new LinkedHashMap<>();
            Map<String, Mix.Values> values = values(base, csvFiles);
            Mix mix = mix(values);
            for (Threshold t : thresholds) {
                for (String r : t.requests()) {
                    if (mix.entries().stream().noneMatch(e -> e.name().equals(r))) {
                        throw bad(lines.lineOf("slo.thresholds", t.text()), "slo.thresholds", "'" + t.text() + "': no request named " + r + " in the mix ("
                                + String.join(", ", mix.entries().stream().map(Mix.Entry::name).toList()) + ")");
                    }
                }
            }
            String baseline = root.has("baseline") ? string("baseline", root.get("baseline")) : null;
            if (baseline != null && !Files.isRegularFile(base.resolve(baseline))) {
                throw bad("baseline", base.resolve(baseline).normalize() + ": no such file (the access log's baseline ./vtlab init --from-log writes beside the scenario)");
            }
            for (Threshold t : thresholds) {
                if (baseline == null && (Fidelity.isFidelity(t.metric()) || (t.refMetric() != null && Fidelity.isFidelity(t.refMetric())))) {
                    throw bad(lines.lineOf(SLO_THRESHOLDS, t.text()), SLO_THRESHOLDS, "'" + t.text() + "': a replay's fidelity is measured against an access log's"
                            + " baseline, and the file names none (./vtlab init --from-log writes one: baseline = \"NAME-baseline.json\")");
                }
            }
            return new Scenario(file, name, words, mix, List.copyOf(thresholds), base, csvFiles, baseline);
        }

        String string(String key, JsonNode n) throws UsageError {
            if (!n.isTextual()) throw bad(key, "must be a string, e.g. " + key.substring(key.lastIndexOf('.') + 1) + " = \"...\" (got " + kind(n) + ")");
            return n.asText();
        }

        static String kind(JsonNode n) {
            if (n.isTextual()) return "a string";
            if (n.isIntegralNumber()) return "a whole number";
            if (n.isNumber()) return "a number";
            if (n.isBoolean()) return "true/false";
            if (n.isArray()) return "an array";
            if (n.isObject()) return "a table";
            return n.getNodeType().toString().toLowerCase(Locale.ROOT);
        }

        /**
         * A key's value as the option's values, checked against the type it declares (an array: one comma list, or
         * each value as given for a repeated option; an env table: K=V each).
         */
        List<String> values(String key, Opt.Type type, JsonNode n) throws UsageError {
            String want = type.words;
            switch (type) {
                case STRING -> {
                    if (n.isTextual()) return List.of(n.asText());
                }
                case INT -> {
                    if (n.isIntegralNumber()) return List.of(n.asText());
                }
                case FLAG -> {
                    if (n.isBoolean()) return List.of(n.asText());
                }
                case ENV -> {
                    if (n.isObject()) {
                        List<String> out = new ArrayList<>();
                        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                            var f = it.next();
                            if (!f.getValue().isTextual() && !f.getValue().isNumber()) throw bad(key, f.getKey() + " must be a string (got " + kind(f.getValue()) + ")");
                            out.add(f.getKey() + "=" + f.getValue().asText());
                        }
                        return out;
                    }
                }
                default -> {
                    List<JsonNode> items = new ArrayList<>();
                    if (n.isArray()) n.forEach(items::add);
                    else items.add(n);
                    List<String> out = new ArrayList<>();
                    for (JsonNode i : items) {
                        boolean ok = switch (type) {
                            case STRINGS, REPEATED -> i.isTextual() || (key.endsWith(".jdk") && i.isIntegralNumber());
                            case INTS -> i.isIntegralNumber();
                            default -> i.isNumber();
                        };
                        if (!ok) throw bad(key, "must be " + want + " (got " + kind(i) + ")");
                        out.add(i.asText());
                    }
                    if (out.isEmpty() && !key.endsWith(THRESHOLDS)) throw bad(key, "is empty: leave the key out for the option's default");
                    // a list option takes one comma list; a repeated one (fault, app-package, dependency) each value as given
                    return type == Opt.Type.REPEATED ? out : List.of(String.join(",", out));
                }
            }
            throw bad(key, "must be " + want + " (got " + kind(n) + ")");
        }

        /** [values]: each placeholder's range or CSV column. */
        Map<String, Mix.Values> values(Path base, Map<String, Path> csvFiles) throws UsageError {
            Map<String, Mix.Values> out = new LinkedHashMap<>();
            JsonNode v = root.get("values");
            if (v == null) return out;
            if (!v.isObject()) throw bad("values", "must be a table: [values] then id = { from = 1, to = 10 } or id = { csv = \"f.csv\", column = \"id\" }");
            Map<Path, List<DataRow>> read = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
                var f = it.next();
                String key = "values." + f.getKey();
                JsonNode n = f.getValue();
                if (!f.getKey().matches("[A-Za-z][A-Za-z0-9_]*")) throw bad(key, "a placeholder's name is a letter then letters, digits or '_'");
                if (!n.isObject()) throw bad(key, "must be { from = 1, to = 10 }, { csv = \"file.csv\", column = \"name\" } or { env = \"VARIABLE\" } (got " + kind(n) + ")");
                Set<String> keys = new LinkedHashSet<>();
                n.fieldNames().forEachRemaining(keys::add);
                if (keys.equals(Set.of("from", "to"))) {
                    if (!n.get("from").isIntegralNumber() || !n.get("to").isIntegralNumber()) throw bad(key, "from and to must be whole numbers");
                    long from = n.get("from").asLong(), to = n.get("to").asLong();
                    if (to < from) throw bad(key, "to (" + to + ") is below from (" + from + ")");
                    out.put(f.getKey(), new Mix.Range(from, to));
                } else if (keys.equals(Set.of("csv", "column"))) {
                    String csv = string(key + ".csv", n.get("csv")), column = string(key + ".column", n.get("column"));
                    Path p = base.resolve(csv).normalize();
                    csvFiles.put(csv, p);
                    List<DataRow> rows = read.get(p);
                    if (rows == null) {
                        try {
                            rows = vtlab.data.Dataset.rows(p); // RFC 4180, its first line naming the columns
                        } catch (IOException e) {
                            throw bad(key, "csv " + csv + ": " + (e instanceof java.nio.file.NoSuchFileException ? "no such file (" + p + ")" : e.getMessage()));
                        }
                        read.put(p, rows);
                    }
                    if (rows.isEmpty()) throw bad(key, "csv " + csv + " has a header and no rows");
                    if (!rows.getFirst().names().contains(column)) {
                        throw bad(key, "csv " + csv + " has no column '" + column + "' (it has " + String.join(", ", rows.getFirst().names()) + ")");
                    }
                    out.put(f.getKey(), new Mix.Column(p, column, rows.stream().map(r -> r.cell(column)).toList()));
                } else if (keys.equals(Set.of("env"))) {
                    String variable = string(key + ".env", n.get("env"));
                    if (!variable.matches("[A-Za-z_][A-Za-z0-9_]*")) throw bad(key, "env names an environment variable (letters, digits, '_'), not '" + variable + "'");
                    out.put(f.getKey(), Mix.Env.of(variable));
                } else {
                    throw bad(key, "must be { from = 1, to = 10 }, { csv = \"file.csv\", column = \"name\" } or { env = \"VARIABLE\" } (got keys " + String.join(", ", keys) + ")");
                }
            }
            return out;
        }

        /** [[requests]]: each with its name, method, path, headers, body, expected answer and weight. */
        Mix mix(Map<String, Mix.Values> values) throws UsageError {
            JsonNode r = root.get("requests");
            if (r == null) throw bad(1, "requests", "no [[requests]]: a scenario sends at least one request (path = \"/...\")");
            if (!r.isArray()) throw bad("requests", "must be [[requests]] tables (an array of tables)");
            List<Mix.Entry> entries = new ArrayList<>();
            Set<String> names = new LinkedHashSet<>();
            Set<String> used = new LinkedHashSet<>();
            for (int i = 0; i < r.size(); i++) {
                String at = "requests[" + (i + 1) + "]";
                JsonNode e = r.get(i);
                if (!e.isObject()) throw bad(at, "must be a table");
                for (Iterator<String> it = e.fieldNames(); it.hasNext(); ) {
                    String k = it.next();
                    if (!REQUEST_KEYS.contains(k)) throw bad(at + "." + k, "unknown key (a request has " + String.join(", ", REQUEST_KEYS) + ")");
                }
                if (!e.has("path")) throw bad(at, "has no path (path = \"/owners/{id}\")");
                String path = string(at + ".path", e.get("path"));
                if (!path.startsWith("/")) throw bad(at + ".path", "a path on the service starts with '/', not '" + path + "'");
                String name = e.has("name") ? string(at + ".name", e.get("name")) : path.replaceAll("[?{].*", "");
                if (!name.matches("[A-Za-z0-9_./-]+")) throw bad(at + ".name", "a name has letters, digits, '_', '.', '/' and '-' only");
                if (!names.add(name)) throw bad(at + ".name", "'" + name + "' names two requests (give each its own name)");
                String method = e.has("method") ? string(at + ".method", e.get("method")).toUpperCase(Locale.ROOT) : "GET";
                if (!METHODS.contains(method)) throw bad(at + ".method", "takes GET, HEAD, DELETE, OPTIONS, POST, PUT or PATCH, not '" + method + "'");
                List<Request.Header> headers = new ArrayList<>();
                if (e.has("headers")) {
                    JsonNode h = e.get("headers");
                    if (!h.isObject()) throw bad(at + ".headers", "must be a table, e.g. headers = { Accept = \"application/json\" } (got " + kind(h) + ")");
                    for (Iterator<Map.Entry<String, JsonNode>> it = h.fields(); it.hasNext(); ) {
                        var f = it.next();
                        String value = string(at + ".headers." + f.getKey(), f.getValue());
                        String unsendable = Request.unsendable(f.getKey(), value);
                        if (unsendable != null) {
                            throw bad(at + ".headers." + f.getKey(), "the JDK's HTTP client, which checks each request before load, does not send it ("
                                    + unsendable + ")" + (unsendable.startsWith("restricted")
                                    ? ": Connection, Content-Length, Expect, Host and Upgrade are set by the client and the generators themselves" : ""));
                        }
                        headers.add(new Request.Header(f.getKey(), value));
                    }
                }
                String body = e.has("body") ? string(at + ".body", e.get("body")) : null;
                if (body != null && (method.equals("GET") || method.equals("HEAD"))) throw bad(at + ".body", "a " + method + " request has no body");
                int status = 2;
                if (e.has("expect-status")) {
                    JsonNode s = e.get("expect-status");
                    if (s.isIntegralNumber() && s.asInt() >= 100 && s.asInt() <= 599) status = s.asInt();
                    else if (!(s.isTextual() && s.asText().equalsIgnoreCase("2xx"))) throw bad(at + ".expect-status", "takes a status code from 100 to 599 or \"2xx\" (got " + s + ")");
                }
                String expectBody = e.has("expect-body") ? string(at + ".expect-body", e.get("expect-body")) : "";
                try {
                    java.util.regex.Pattern.compile(expectBody);
                } catch (java.util.regex.PatternSyntaxException x) {
                    throw bad(at + ".expect-body", "is not a regex: " + x.getDescription());
                }
                int weight = 1;
                if (e.has("weight")) {
                    JsonNode w = e.get("weight");
                    if (!w.isIntegralNumber()) throw bad(at + ".weight", "must be a whole number (got " + kind(w) + ")");
                    if (w.asLong() < 1 || w.asLong() > MAX_TOTAL_WEIGHT) throw bad(at + ".weight", "must be from 1 to " + MAX_TOTAL_WEIGHT + " (got " + w.asText() + "): leave a request out to send none");
                    weight = w.asInt();
                }
                Mix.Entry entry = new Mix.Entry(name, method, path, headers, body, status, expectBody, weight);
                for (String p : entry.placeholders()) {
                    if (!values.containsKey(p)) {
                        String where = Mix.placeholders(path).contains(p) ? at + ".path" : at + ".body";
                        throw bad(where, "{" + p + "} has no values: add [values] " + p + " = { from = 1, to = 10 } or { csv = \"file.csv\", column = \"" + p + "\" }");
                    }
                    used.add(p);
                }
                entries.add(entry);
            }
            if (entries.isEmpty()) throw bad("requests", "no requests");
            int total = entries.stream().mapToInt(Mix.Entry::weight).sum();
            if (total > MAX_TOTAL_WEIGHT) throw bad("requests", "the weights add up to " + total + ": at most " + MAX_TOTAL_WEIGHT + " (k6 holds one cycle of them)");
            for (String v : values.keySet()) if (!used.contains(v)) throw bad("values." + v, "no request names {" + v + "}");
            return new Mix(entries, values);
        }
    }
}
