package vtlab.experiment.scenario.accesslog;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
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
 * the arrival rate per second of the log's time, and, where the format logs durations, the peak in flight (Little's
 * law: a second's summed durations over the second). Secret-looking query values (token, key, password, ...) are
 * masked. Lines that do not parse are counted and the first few kept; none parsing is a refusal.
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
    private static final Pattern SECRET = Pattern.compile("(?i).*(token|key|password|passwd|pwd|secret|auth|session|signature|sig|credential).*");
    public static final String MASK = "MASKED";

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

    private final LogFormat format;
    private final double speedup;
    private final Set<String> replayed;
    private final Map<String, Template> templates = new HashMap<>();
    private final TreeMap<Long, long[]> perSecond = new TreeMap<>();
    private final TreeMap<Long, double[]> busyPerSecond = new TreeMap<>();
    private final Set<String> masked = new LinkedHashSet<>();
    private final List<String> badShown = new ArrayList<>();
    private final Map<String, Long> notReplayed = new TreeMap<>();
    private final Random random = new Random(42);
    private final Arrivals arrivals = new Arrivals(); // the replay's baseline (vtlab.experiment.scenario.Baseline)
    private long parsed, bad, untracked;
    private boolean durations;

    private LogImport(LogFormat format, double speedup, Set<String> replayed) {
        this.format = format;
        this.speedup = speedup;
        this.replayed = replayed;
    }

    /**
     * Reads the log (its format named, or null: detected from its first lines) into its traffic; refused in one line
     * (exit 2): an empty log, one of no known format, one whose every line is malformed, a speedup not above 0.
     *
     * @param writes the methods beside GET and HEAD to replay (--replay-writes)
     */
    public static Result read(Path log, String formatName, double speedup, Set<String> writes, String prefix) throws UsageError, IOException {
        if (!(speedup > 0) || Double.isInfinite(speedup)) throw new UsageError("--speedup takes a number above 0 (the log's pace compressed N times), not " + fmt(speedup));
        if (!Files.isRegularFile(log)) throw new UsageError("--from-log " + log + ": no such file");
        if (Files.size(log) == 0) throw new UsageError("--from-log " + log + ": the log is empty");
        LogFormat format;
        if (formatName != null) {
            format = LogFormat.named(formatName);
            if (format == null) throw new UsageError("--log-format takes " + String.join(", ", LogFormat.NAMES) + ", not '" + formatName + "'");
        } else {
            format = detect(log);
        }
        Set<String> replayed = new LinkedHashSet<>(READS);
        for (String w : writes) replayed.add(w.toUpperCase(Locale.ROOT));
        LogImport in = new LogImport(format, speedup, replayed);
        try (BufferedReader r = new BufferedReader(new java.io.InputStreamReader(Files.newInputStream(log),
                StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE)), 1 << 16)) {
            for (String line; (line = r.readLine()) != null; ) in.add(line);
        }
        if (in.parsed == 0) {
            throw new UsageError("--from-log " + log + ": no line reads as " + format.name().toLowerCase(Locale.ROOT) + " (" + in.bad + " lines, the first: "
                    + (in.badShown.isEmpty() ? "none" : clip(in.badShown.getFirst())) + ")");
        }
        return in.result(prefix);
    }

    /** The format most of the log's first 100 non-empty lines read as; none: a refusal. */
    static LogFormat detect(Path log) throws IOException, UsageError {
        Map<LogFormat, Integer> reads = new LinkedHashMap<>();
        int lines = 0;
        try (BufferedReader r = Files.newBufferedReader(log, StandardCharsets.UTF_8)) {
            for (String line; lines < 100 && (line = r.readLine()) != null; ) {
                if (line.isBlank()) continue;
                lines++;
                for (LogFormat f : LogFormat.values()) if (f.parse(line) != null) reads.merge(f, 1, Integer::sum);
            }
        } catch (java.nio.charset.MalformedInputException e) {
            throw new UsageError("--from-log " + log + ": not text in a known access-log format (" + String.join(", ", LogFormat.NAMES) + ")");
        }
        if (lines == 0) throw new UsageError("--from-log " + log + ": the log is empty");
        return reads.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey)
                .orElseThrow(() -> new UsageError("--from-log " + log + ": no known access-log format (" + String.join(", ", LogFormat.NAMES)
                        + "; --log-format names one)"));
    }

    private void add(String line) {
        if (line.isBlank()) return;
        LogFormat.Line l = format.parse(line);
        if (l == null) {
            bad++;
            if (badShown.size() < SHOWN) badShown.add(line);
            return;
        }
        parsed++;
        long second = Math.floorDiv(l.epochMillis(), 1000);
        perSecond.computeIfAbsent(second, k -> new long[1])[0]++;
        if (l.durationMs() >= 0) {
            durations = true;
            busyPerSecond.computeIfAbsent(second, k -> new double[1])[0] += l.durationMs();
        }
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

    /** The target's template: each varying segment and query value a placeholder, its name in names and its value in values. */
    String template(String target, List<String> names, List<String> values) {
        int q = target.indexOf('?');
        String path = q < 0 ? target : target.substring(0, q);
        String previous = "id";
        List<String> out = new ArrayList<>();
        for (String seg : path.split("/", -1)) {
            if (NUMBER.matcher(seg).matches() || UUID.matcher(seg).matches() || HEX.matcher(seg).matches() || TOKEN.matcher(seg).matches()) {
                String name = unique(name(previous) + "_id", names);
                names.add(name);
                values.add(seg);
                out.add("{" + name + "}");
            } else {
                out.add(seg.replace("{", "%7B").replace("}", "%7D"));
                if (!seg.isEmpty()) previous = seg;
            }
        }
        StringBuilder sb = new StringBuilder(String.join("/", out));
        if (sb.isEmpty() || sb.charAt(0) != '/') sb.insert(0, '/');
        if (q >= 0) {
            String query = target.substring(q + 1);
            List<String> parts = new ArrayList<>();
            for (String kv : query.split("&")) {
                int eq = kv.indexOf('=');
                String k = eq < 0 ? kv : kv.substring(0, eq);
                if (eq < 0) {
                    parts.add(k.replace("{", "%7B").replace("}", "%7D"));
                    continue;
                }
                String v = kv.substring(eq + 1);
                if (SECRET.matcher(k).matches()) {
                    masked.add(k);
                    parts.add(k + "=" + MASK);
                    continue;
                }
                String name = unique(name(k), names);
                names.add(name);
                values.add(v);
                parts.add(k.replace("{", "%7B").replace("}", "%7D") + "={" + name + "}");
            }
            sb.append('?').append(String.join("&", parts));
        }
        return sb.toString();
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
        if (!notReplayed.isEmpty()) {
            notes.add("not replayed (only GET and HEAD unless --replay-writes names others): "
                    + String.join(", ", notReplayed.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).toList())
                    + " requests, " + pct(notReplayed.values().stream().mapToLong(Long::longValue).sum(), parsed) + " of the log");
        }
        if (!masked.isEmpty()) notes.add("secret-looking query values masked as " + MASK + ": " + String.join(", ", masked));
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
        for (int i = 0; i < kept.size(); i++) {
            Template t = kept.get(i);
            long count = t.count + (i == 0 ? dropped : 0);
            int weight = (int) Math.max(1, Math.round(10_000.0 * count / replayedCount));
            String name = requestName(t, names);
            // a placeholder whose sample holds one value is that value
            String path = t.path;
            List<Integer> varying = new ArrayList<>();
            for (int c = 0; c < t.placeholders.size(); c++) {
                Set<String> distinct = new LinkedHashSet<>();
                for (String[] row : t.sample) {
                    distinct.add(row[c]);
                    if (distinct.size() > 1) break;
                }
                if (distinct.size() > 1) varying.add(c);
                else path = path.replace("{" + t.placeholders.get(c) + "}", distinct.iterator().next().replace("{", "%7B").replace("}", "%7D"));
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
                for (String[] row : t.sample) {
                    List<String> r = new ArrayList<>();
                    for (int c : varying) r.add(row[c]);
                    rows.add(r);
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
        // the rate: requests per second of the log's time, in at most 20 steps of whole seconds, compressed by the speedup
        long first = perSecond.firstKey(), last = perSecond.lastKey();
        long span = last - first + 1;
        long stepLog = (span + 19) / 20;
        int steps = (int) ((span + stepLog - 1) / stepLog);
        double[] counts = new double[steps];
        perSecond.forEach((s, c) -> counts[(int) ((s - first) / stepLog)] += c[0]);
        List<String> points = new ArrayList<>();
        for (int i = 0; i < steps; i++) {
            double seconds = Math.min(stepLog, span - i * stepLog) / speedup;
            double rate = counts[i] * (double) replayedCount / parsed / seconds;
            String r = fmt(Math.max(1, Math.round(rate * 10) / 10.0));
            if (i > 0 && r.equals(last(points))) continue; // a step to the same rate says nothing
            points.add(r + "@" + fmt(Math.round(i * stepLog / speedup * 1000) / 1000.0) + "s");
        }
        long hold = Math.max(1, Math.round(span / speedup));
        notes.add("the log's time: " + span + " s from " + java.time.Instant.ofEpochSecond(first) + ", at " + (speedup == 1 ? "its pace" : fmt(speedup) + "x its pace")
                + ": " + hold + " s of load");
        int conc = 0;
        if (durations) {
            double peak = busyPerSecond.values().stream().mapToDouble(d -> d[0] / 1000.0).max().orElse(0);
            conc = (int) Math.max(1, Math.ceil(peak * speedup));
            notes.add("the peak in flight, by Little's law (a second's summed durations over the second" + (speedup == 1 ? "" : ", times the speedup")
                    + "): " + fmt(Math.round(peak * speedup * 10) / 10.0) + " → conc = " + conc + " for the closed model");
        }
        return new Result(new Mix(entries, values), csv, String.join(",", points), hold, conc, notes, arrivals);
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
