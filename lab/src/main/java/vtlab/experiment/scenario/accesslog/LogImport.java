package vtlab.experiment.scenario.accesslog;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

import vtlab.core.UsageError;
import vtlab.stack.Mix;

/**
 * An access log read into the traffic it records, line by line in bounded memory: its requests grouped into templates
 * (a numeric id, a UUID, a long hex or digit-bearing token in a path segment, and a query value, each a placeholder;
 * the values seen kept as a sample of at most {@link #SAMPLE} requests a template, so their frequencies stay), the
 * templates' shares (the long tail beyond {@link #MAX_TEMPLATES} or under {@link #MIN_SHARE} folded into the largest),
 * the arrival rate per second of the log's time and, where the format logs durations, the peak in flight
 * ({@link Timeline}: read in a second pass, in bounded memory, far-off times left out). Secret and personal values,
 * in a query or a path ({@link Masking}), are never kept: a placeholder mostly masked is sent with the value of an
 * environment variable the scenario names. Lines are read through one {@link LogDecoder} (bytes that are not UTF-8
 * replaced and counted); lines that do not parse are counted and the first few kept; none parsing is a refusal.
 */
public final class LogImport {
    /** The most requests of a template whose values are kept (a uniform sample of them all: reservoir sampling). */
    static final int SAMPLE = 2_000;
    /** The most templates told apart; a request of a template beyond them counts in the log's total only. */
    static final int MAX_TRACKED = 500;
    /** The most templates written; the rest folded into the largest. */
    static final int MAX_TEMPLATES = 30;
    /** The least share written as a template of its own. */
    static final double MIN_SHARE = 0.001;
    /** The unparsable lines shown. */
    static final int SHOWN = 3;
    static final Set<String> READS = Set.of("GET", "HEAD");
    private static final Pattern NUMBER = Pattern.compile("[0-9]+");
    private static final Pattern UUID = Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final Pattern HEX = Pattern.compile("[0-9a-fA-F]{16,}");
    private static final Pattern TOKEN = Pattern.compile("(?=.*[0-9])[A-Za-z0-9_.~%-]{8,}");
    /** The fields of a request --field maps (JSON lines). */
    public static final List<String> FIELDS = JsonShapes.FIELDS;
    /** The environment variable a masked placeholder's value is sent from: this, then its name in capitals. */
    public static final String ENV_PREFIX = "VTLAB_SECRET_";
    /** The most masked (name, where, kind) told apart in what init says. */
    static final int MASKED_SAID = 100;

    /** One template: its method and path, its placeholders in order, its count and a sample of their values. */
    static final class Template {
        final String method, path;
        final List<String> placeholders;
        long count;
        final Map<Integer, Long> statuses = new HashMap<>();
        final List<String[]> sample = new ArrayList<>();

        Template(String method, String path, List<String> placeholders) {
            this.method = method;
            this.path = path;
            this.placeholders = placeholders;
        }
    }

    /**
     * What the import found.
     *
     * @param requests   the mix's requests with their shares as weights, and their values (CSV columns, one file each)
     * @param csv        each CSV file's rows (the first its header), by its name beside the scenario
     * @param rateProfile the open model's profile ("RATE@TIME,..."), over {@code holdSeconds}
     * @param conc       the peak in flight (Little's law), 0 when the format logs no durations
     * @param notes      what the file's comments say: the format, lines read and unparsable, shares dropped, masked names
     */
    public record Result(Mix requests, Map<String, List<List<String>>> csv, String rateProfile, long holdSeconds, int conc, List<String> notes,
                         Arrivals arrivals) {}

    /**
     * What the user decides: the keys never masked (--keep) and always masked (--mask), and the JSON fields' names
     * (--field time=ts,path=uri); each a list of values as given, comma lists among them.
     */
    public record Choices(List<String> keep, List<String> mask, List<String> fields) {
        public static final Choices NONE = new Choices(List.of(), List.of(), List.of());

        public Choices {
            keep = split(keep);
            mask = split(mask);
            fields = split(fields);
        }

        private static List<String> split(List<String> given) {
            List<String> out = new ArrayList<>();
            for (String g : given) for (String p : g.split(",")) if (!p.isBlank()) out.add(p.strip());
            return out;
        }
    }

    private final LogFormat format;
    private final double speedup;
    private final Set<String> replayed;
    private final Masking masking;
    private final JsonShapes shapes;
    private final Map<String, Template> templates = new HashMap<>();
    private final Timeline timeline = new Timeline();
    /** Values masked, by "name (where, kind)". */
    private final Map<String, Long> masked = new LinkedHashMap<>();
    private String tolerated;
    private final List<String> badShown = new ArrayList<>();
    private final Map<String, Long> notReplayed = new TreeMap<>();
    private final Random random = new Random(42);
    private final Arrivals arrivals = new Arrivals(); // the replay's baseline (vtlab.experiment.scenario.Baseline)
    private long parsed, bad, untracked;

    private LogImport(LogFormat format, double speedup, Set<String> replayed, Masking masking, JsonShapes shapes) {
        this.format = format;
        this.speedup = speedup;
        this.replayed = replayed;
        this.masking = masking;
        this.shapes = shapes;
    }

    /**
     * Reads the log (its format named, or null: detected from its first lines) into its traffic; refused in one line
     * (exit 2): an empty log, one of no known format, one whose every line is malformed, a speedup not above 0.
     *
     * @param writes the methods beside GET and HEAD to replay (--replay-writes)
     */
    public static Result read(Path log, String formatName, double speedup, Set<String> writes, String prefix) throws UsageError, IOException {
        return read(log, formatName, speedup, writes, prefix, Choices.NONE);
    }

    /**
     * {@link #read(Path, String, double, Set, String)} with the user's choices; refused in one line too: --keep and
     * --mask of one key, a --field of no field of a request, --field with a format other than json.
     */
    public static Result read(Path log, String formatName, double speedup, Set<String> writes, String prefix, Choices choices) throws UsageError, IOException {
        Masking masking = Masking.of(choices.keep(), choices.mask());
        JsonShapes shapes = JsonShapes.of(choices.fields());
        if (!(speedup > 0) || Double.isInfinite(speedup)) throw new UsageError("--speedup takes a number above 0 (the log's pace compressed N times), not " + fmt(speedup));
        LogFormat format = formatName == null ? null : LogFormat.named(formatName);
        if (formatName != null && format == null) throw new UsageError("--log-format takes " + String.join(", ", LogFormat.NAMES) + ", not '" + formatName + "'");
        if (!choices.fields().isEmpty()) {
            if (format != null && format != LogFormat.JSON) throw new UsageError("--field names the fields of JSON lines; --log-format " + formatName + " has none");
            format = LogFormat.JSON;
        }
        if (!Files.isRegularFile(log)) throw new UsageError("--from-log " + log + ": no such file");
        if (Files.size(log) == 0) throw new UsageError("--from-log " + log + ": the log is empty");
        if (format == null) format = detect(log);
        Set<String> replayed = new LinkedHashSet<>(READS);
        for (String w : writes) replayed.add(w.toUpperCase(Locale.ROOT));
        LogImport in = new LogImport(format, speedup, replayed, masking, shapes);
        try (LogDecoder d = LogDecoder.open(log)) {
            for (String line; (line = d.readLine()) != null; ) in.add(line);
            in.tolerated = d.tolerated();
        }
        if (in.parsed == 0) {
            String why = shapes.missing() != null ? "; --field " + shapes.missing() + ": no line has that field" : "";
            throw new UsageError("--from-log " + log + ": no line reads as " + format.name().toLowerCase(Locale.ROOT) + " (" + in.bad + " lines, the first: "
                    + (in.badShown.isEmpty() ? "none" : clip(in.badShown.getFirst())) + (in.tolerated == null ? "" : "; " + in.tolerated) + why + ")");
        }
        // the second read: the log's time, now that its median says which times are far off
        in.timeline.settle();
        try (LogDecoder d = LogDecoder.open(log)) {
            for (String line; (line = d.readLine()) != null; ) {
                LogFormat.Line l = line.isBlank() ? null : in.parse(line);
                if (l != null) in.timeline.add(l.epochMillis(), l.durationMs());
            }
        }
        in.timeline.finish();
        return in.result(prefix);
    }

    /** A line as a request of the log's format (JSON: of the shapes known, or --field's), or null. */
    private LogFormat.Line parse(String line) {
        return format == LogFormat.JSON ? shapes.parse(line) : format.parse(line);
    }

    /** The format most of the log's first 100 non-empty lines read as (through the decoder the read uses); none: a refusal. */
    static LogFormat detect(Path log) throws IOException, UsageError {
        Map<LogFormat, Integer> reads = new LinkedHashMap<>();
        int lines = 0;
        String tolerated;
        try (LogDecoder r = LogDecoder.open(log)) {
            for (String line; lines < 100 && (line = r.readLine()) != null; ) {
                if (line.isBlank()) continue;
                lines++;
                for (LogFormat f : LogFormat.values()) if (f.parse(line) != null) reads.merge(f, 1, Integer::sum);
            }
            tolerated = r.tolerated();
        }
        if (lines == 0) throw new UsageError("--from-log " + log + ": the log is empty");
        return reads.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey)
                .orElseThrow(() -> new UsageError("--from-log " + log + ": no known access-log format (" + String.join(", ", LogFormat.NAMES)
                        + "; --log-format names one)" + (tolerated == null ? "" : "; of its first lines " + tolerated)));
    }

    private void add(String line) {
        if (line.isBlank()) return;
        LogFormat.Line l = parse(line);
        if (l == null) {
            bad++;
            if (badShown.size() < SHOWN) badShown.add(Masking.scrub(line)); // shown and written as a comment: never a secret of it
            return;
        }
        parsed++;
        timeline.sample(l.epochMillis());
        if (!replayed.contains(l.method())) {
            notReplayed.merge(l.method(), 1L, Long::sum);
            return;
        }
        arrivals.add(l.epochMillis());
        List<String> names = new ArrayList<>();
        List<String> values = new ArrayList<>();
        String path = template(l.target(), names, values);
        String key = l.method() + " " + path;
        Template t = templates.get(key);
        if (t == null) {
            if (templates.size() >= MAX_TRACKED) {
                untracked++;
                return;
            }
            t = new Template(l.method(), path, names);
            templates.put(key, t);
        }
        t.count++;
        t.statuses.merge(l.status(), 1L, Long::sum);
        String[] row = values.toArray(String[]::new);
        if (t.sample.size() < SAMPLE) t.sample.add(row);
        else {
            long j = (long) (random.nextDouble() * t.count);
            if (j < SAMPLE) t.sample.set((int) j, row);
        }
    }

    /**
     * The target's template: each varying segment and query value a placeholder, its name in names and its value in
     * values; a value {@link Masking} masks a placeholder too, with null as its value (never kept).
     */
    String template(String target, List<String> names, List<String> values) {
        int q = target.indexOf('?');
        String path = q < 0 ? target : target.substring(0, q);
        String previous = "id", previousKey = null;
        List<String> out = new ArrayList<>();
        for (String seg : path.split("/", -1)) {
            String base = name(previous) + "_id";
            String kind = seg.isEmpty() ? null : masking.kind(previousKey, true, base, seg);
            if (kind != null || NUMBER.matcher(seg).matches() || UUID.matcher(seg).matches() || HEX.matcher(seg).matches() || TOKEN.matcher(seg).matches()) {
                String name = unique(base, names);
                names.add(name);
                values.add(kind == null ? seg : null);
                if (kind != null) masked(base + " (path segment, " + kind + ")");
                out.add("{" + name + "}");
            } else {
                out.add(escape(seg));
                if (!seg.isEmpty()) previous = previousKey = seg;
            }
        }
        StringBuilder sb = new StringBuilder(String.join("/", out));
        if (sb.isEmpty() || sb.charAt(0) != '/') sb.insert(0, '/');
        if (q >= 0) {
            String query = target.substring(q + 1);
            List<String> parts = new ArrayList<>();
            for (String kv : query.split("&")) {
                int eq = kv.indexOf('=');
                // a key that is itself a secret (?<token>=) is a bare secret, its '=' and all
                boolean secretKey = eq > 0 && Masking.shape(kv.substring(0, eq)) != null;
                if (eq < 0 || secretKey) {
                    // a bare query string (?3f2a...): kept as it is unless it is a secret
                    String kind = masking.kind(null, false, "query", secretKey ? kv.substring(0, eq) : kv);
                    if (kind == null) parts.add(escape(kv));
                    else {
                        String name = unique("query", names);
                        names.add(name);
                        values.add(null);
                        masked("query (bare query, " + kind + ")");
                        parts.add("{" + name + "}");
                    }
                    continue;
                }
                String k = kv.substring(0, eq), v = kv.substring(eq + 1);
                String kind = masking.kind(k, false, name(k), v);
                String name = unique(name(k), names);
                names.add(name);
                values.add(kind == null ? v : null);
                if (kind != null) masked(name(k) + " (query " + k + ", " + kind + ")");
                parts.add(escape(k) + "={" + name + "}");
            }
            sb.append('?').append(String.join("&", parts));
        }
        return sb.toString();
    }

    private static String escape(String s) {
        return s.replace("{", "%7B").replace("}", "%7D");
    }

    private void masked(String what) {
        if (masked.size() < MASKED_SAID || masked.containsKey(what)) masked.merge(what, 1L, Long::sum);
    }

    private static String name(String s) {
        String n = s.replaceAll("[^A-Za-z0-9_]+", "_").replaceAll("^[^A-Za-z]+", "");
        if (n.length() > 24) n = n.substring(0, 24);
        return n.isEmpty() ? "v" : n;
    }

    private static String unique(String base, List<String> taken) {
        String n = base;
        for (int i = 2; taken.contains(n); i++) n = base + i;
        return n;
    }

    private Result result(String prefix) {
        List<String> notes = new ArrayList<>();
        long replayedCount = templates.values().stream().mapToLong(t -> t.count).sum() + untracked;
        notes.add("format: " + format.label() + "; " + parsed + " requests read" + (bad > 0 ? ", " + bad + " lines that did not parse, the first "
                + String.join(" | ", badShown.stream().map(LogImport::clip).toList()) : ""));
        if (format == LogFormat.JSON && !shapes.said().isEmpty()) notes.add("json fields: " + shapes.said());
        if (tolerated != null) notes.add(tolerated);
        if (!notReplayed.isEmpty()) {
            notes.add("not replayed (only GET and HEAD unless --replay-writes names others): "
                    + String.join(", ", notReplayed.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).toList())
                    + " requests, " + pct(notReplayed.values().stream().mapToLong(Long::longValue).sum(), parsed) + " of the log");
        }
        if (!masked.isEmpty()) {
            notes.add("masked: " + String.join(", ", masked.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).toList())
                    + " (secret or personal values, never written; --keep KEY keeps a key's, --mask KEY masks them)");
        }
        if (replayedCount == 0) return new Result(null, Map.of(), null, 0, 0, notes, arrivals);
        List<Template> sorted = new ArrayList<>(templates.values());
        sorted.sort(Comparator.comparingLong((Template t) -> -t.count).thenComparing(t -> t.method + " " + t.path));
        List<Template> kept = new ArrayList<>();
        long dropped = untracked;
        int droppedTemplates = untracked > 0 ? 1 : 0;
        for (Template t : sorted) {
            if (kept.size() < MAX_TEMPLATES && t.count >= MIN_SHARE * replayedCount) kept.add(t);
            else {
                dropped += t.count;
                droppedTemplates++;
            }
        }
        if (dropped > 0) {
            notes.add("the long tail: " + droppedTemplates + " templates, " + pct(dropped, replayedCount) + " of the requests replayed, folded into "
                    + kept.getFirst().method + " " + kept.getFirst().path);
        }
        // weights: shares in hundredths of a percent (the tail folded into the largest)
        List<Mix.Entry> entries = new ArrayList<>();
        Map<String, Mix.Values> values = new LinkedHashMap<>();
        Map<String, List<List<String>>> csv = new LinkedHashMap<>();
        Set<String> names = new LinkedHashSet<>();
        Map<String, Long> refilled = new LinkedHashMap<>(); // placeholders rarely masked: how many values of theirs were replaced
        for (int i = 0; i < kept.size(); i++) {
            Template t = kept.get(i);
            long count = t.count + (i == 0 ? dropped : 0);
            int weight = (int) Math.max(1, Math.round(10_000.0 * count / replayedCount));
            String name = requestName(t, names);
            String path = t.path;
            // a placeholder mostly masked is sent from an environment variable; one rarely masked keeps its other values
            List<List<String>> cells = new ArrayList<>();
            for (int c = 0; c < t.placeholders.size(); c++) cells.add(fill(t.sample, c, refilled, t.placeholders.get(c)));
            for (int c = 0; c < t.placeholders.size(); c++) {
                if (cells.get(c) != null) continue;
                String global = unique(t.placeholders.get(c), new ArrayList<>(values.keySet()));
                path = path.replace("{" + t.placeholders.get(c) + "}", "{" + global + "}");
                values.put(global, new Mix.Env(envVar(t.placeholders.get(c)), null));
            }
            // a placeholder whose sample holds one value is that value
            List<Integer> varying = new ArrayList<>();
            for (int c = 0; c < t.placeholders.size(); c++) {
                if (cells.get(c) == null) continue;
                Set<String> distinct = new LinkedHashSet<>();
                for (String cell : cells.get(c)) {
                    distinct.add(cell);
                    if (distinct.size() > 1) break;
                }
                if (distinct.size() > 1) varying.add(c);
                else path = path.replace("{" + t.placeholders.get(c) + "}", escape(distinct.iterator().next()));
            }
            if (!varying.isEmpty()) {
                String file = prefix + "-" + name.replaceAll("[^A-Za-z0-9_.-]+", "_") + ".csv";
                List<List<String>> rows = new ArrayList<>();
                List<String> header = new ArrayList<>();
                for (int c : varying) {
                    String global = unique(t.placeholders.get(c), new ArrayList<>(values.keySet()));
                    path = path.replace("{" + t.placeholders.get(c) + "}", "{" + global + "}");
                    header.add(global);
                }
                rows.add(header);
                for (int r = 0; r < t.sample.size(); r++) {
                    List<String> row = new ArrayList<>();
                    for (int c : varying) row.add(cells.get(c).get(r));
                    rows.add(row);
                }
                csv.put(file, rows);
                for (int h = 0; h < header.size(); h++) {
                    int col = h;
                    values.put(header.get(h), new Mix.Column(Path.of(file), header.get(h), rows.subList(1, rows.size()).stream().map(r -> r.get(col)).toList()));
                }
            }
            long most = t.statuses.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(200);
            int expect = most >= 200 && most < 300 ? 2 : (int) most;
            entries.add(new Mix.Entry(name, t.method, path, List.of(), null, expect, "", weight));
        }
        List<String> env = values.values().stream().filter(v -> v instanceof Mix.Env).map(v -> ((Mix.Env) v).variable()).distinct().toList();
        if (!env.isEmpty()) notes.add("masked values are sent from the environment, never from the file: export " + String.join(", ", env) + " before ./vtlab run");
        if (!refilled.isEmpty()) {
            notes.add("values mostly not masked had their masked ones replaced by others of the same column: "
                    + String.join(", ", refilled.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).toList()));
        }
        // the rate: requests per bin of the log's time (whole seconds up to a day or so), in at most 20 steps, compressed by the speedup
        long[] bins = timeline.counts();
        long bin = timeline.binMillis() / 1000;
        int perStep = (bins.length + 19) / 20;
        int steps = (bins.length + perStep - 1) / perStep;
        long span = bins.length * bin;
        List<String> points = new ArrayList<>();
        for (int i = 0; i < steps; i++) {
            long count = 0;
            for (int b = i * perStep; b < Math.min(bins.length, (i + 1) * perStep); b++) count += bins[b];
            double seconds = Math.min(perStep, bins.length - i * perStep) * bin / speedup;
            double rate = count * (double) replayedCount / parsed / seconds;
            String r = fmt(Math.max(1, Math.round(rate * 10) / 10.0));
            if (i > 0 && r.equals(last(points))) continue; // a step to the same rate says nothing
            points.add(r + "@" + fmt(Math.round(i * perStep * bin / speedup * 1000) / 1000.0) + "s");
        }
        long hold = Math.max(1, Math.round(span / speedup));
        notes.add("the log's time: " + span + " s from " + java.time.Instant.ofEpochMilli(timeline.firstMillis()) + ", at "
                + (speedup == 1 ? "its pace" : fmt(speedup) + "x its pace") + ": " + hold + " s of load");
        if (timeline.farOff() > 0) notes.add(timeline.farOffNote());
        int conc = 0;
        if (timeline.durations()) {
            int peak = timeline.peak();
            conc = (int) Math.max(1, Math.ceil(peak * speedup));
            notes.add("the peak in flight, by a sweep over each request's start and end (its time and duration"
                    + (timeline.wholeSeconds() ? ", a start taken at random within its logged second" : "") + (speedup == 1 ? "" : "; times the speedup")
                    + "): " + fmt(Math.round(peak * speedup * 10) / 10.0) + " → conc = " + conc + " for the closed model");
        }
        if (timeline.outOfOrder() > 0) {
            notes.add(timeline.outOfOrder() + " lines more than " + Timeline.LAG / 1000 + " s out of order: in the rate"
                    + (timeline.durations() ? ", left out of the peak in flight" : ""));
        }
        return new Result(new Mix(entries, values), csv, String.join(",", points), hold, conc, notes, arrivals);
    }

    /**
     * One placeholder's cells of the sample, masked ones (null) replaced by others of the column drawn at random; null
     * when half of them or more are masked (the placeholder is then sent from an environment variable); the values
     * replaced counted in refilled.
     */
    private List<String> fill(List<String[]> sample, int c, Map<String, Long> refilled, String placeholder) {
        List<String> kept = new ArrayList<>();
        long nulls = 0;
        for (String[] row : sample) {
            if (row[c] == null) nulls++;
            else kept.add(row[c]);
        }
        if (nulls == 0) return kept;
        if (nulls * 2 >= sample.size()) return null;
        refilled.merge(placeholder, nulls, Long::sum);
        List<String> out = new ArrayList<>();
        for (String[] row : sample) out.add(row[c] != null ? row[c] : kept.get(random.nextInt(kept.size())));
        return out;
    }

    /** The environment variable a masked placeholder is sent from: VTLAB_SECRET_ and its name in capitals. */
    static String envVar(String placeholder) {
        return ENV_PREFIX + placeholder.toUpperCase(Locale.ROOT);
    }

    private static String last(List<String> points) {
        String p = points.getLast();
        return p.substring(0, p.indexOf('@'));
    }

    private static String requestName(Template t, Set<String> taken) {
        String base = t.path.replaceFirst("\\?.*", "").replaceAll("\\{[^}]*}", "").replaceAll("[^A-Za-z0-9]+", "-").replaceAll("^-|-$", "").toLowerCase(Locale.ROOT);
        if (base.isEmpty()) base = "home";
        if (!READS.contains(t.method) || t.method.equals("HEAD")) base = t.method.toLowerCase(Locale.ROOT) + "-" + base;
        if (base.length() > 40) base = base.substring(0, 40);
        String n = base;
        for (int i = 2; !taken.add(n); i++) n = base + "-" + i;
        return n;
    }

    private static String pct(long part, long whole) {
        return String.format(Locale.ROOT, "%.2f%%", 100.0 * part / Math.max(1, whole));
    }

    static String fmt(double d) {
        return d == Math.rint(d) && !Double.isInfinite(d) ? Long.toString((long) d) : Double.toString(d);
    }

    private static String clip(String s) {
        return "'" + (s.length() > 80 ? s.substring(0, 80) + "..." : s) + "'";
    }
}
