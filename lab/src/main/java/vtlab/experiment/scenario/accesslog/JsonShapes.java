package vtlab.experiment.scenario.accesslog;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import vtlab.core.UsageError;

/**
 * JSON access-log lines of the common shapes, one object a line, each field of a request found under the names its
 * writers give it: the lab's own ({@code time}, {@code method}, {@code path}, {@code status}, {@code duration_ms}),
 * nginx's JSON {@code log_format} ({@code time_iso8601} or {@code msec}, {@code request_method},
 * {@code request_uri}/{@code uri}, {@code status}, {@code request_time} in seconds), Envoy's JSON access log
 * ({@code start_time}, {@code method}, {@code path}, {@code response_code}, {@code duration} in ms) and
 * logstash-logback-encoder's access events ({@code @timestamp}, {@code method}, {@code requested_uri}/{@code
 * requested_url}, {@code status_code}, {@code elapsed_time} in ms); or the names the user maps ({@code --field
 * time=ts,path=uri}, a unit after a colon: {@code duration=took:s}). A time given as a number is read in the unit its
 * name says (nginx's msec: seconds) or, failing that, its magnitude says (epoch seconds ~1e9, ms ~1e12, µs ~1e15,
 * ns ~1e18): a time in seconds read as milliseconds would put every rate 1,000 times too high. What each field was read
 * from, and in which unit, is said ({@link #said}).
 */
final class JsonShapes {
    /** The fields of a request, as --field names them. */
    static final List<String> FIELDS = List.of("time", "method", "path", "status", "duration");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A field's names in the shapes known, first found first taken (nginx's msec, in ms, before its time_iso8601, in seconds). */
    private static final Map<String, List<String>> NAMES = Map.of(
            "time", List.of("time", "@timestamp", "timestamp", "start_time", "msec", "time_iso8601", "time_local", "ts", "date", "datetime"),
            "method", List.of("method", "request_method", "http_method", "verb"),
            "path", List.of("path", "request_uri", "requested_uri", "requested_url", "uri", "url", "request_path", "target", "request"),
            "status", List.of("status", "response_code", "status_code", "statusCode", "response_status", "code"),
            "duration", List.of("duration_ms", "request_time", "duration", "elapsed_time", "elapsed_ms", "duration_us", "duration_ns", "latency_ms",
                    "response_time_ms", "took_ms"));
    /** The units known by name: a duration's (nginx's request_time in s, Envoy's duration in ms), a time's (msec: s). */
    private static final Map<String, Unit> UNIT_BY_NAME = Map.ofEntries(Map.entry("duration_ms", Unit.MS), Map.entry("request_time", Unit.S),
            Map.entry("duration", Unit.MS), Map.entry("elapsed_time", Unit.MS), Map.entry("elapsed_ms", Unit.MS), Map.entry("duration_us", Unit.US),
            Map.entry("duration_ns", Unit.NS), Map.entry("latency_ms", Unit.MS), Map.entry("response_time_ms", Unit.MS), Map.entry("took_ms", Unit.MS),
            Map.entry("msec", Unit.S));
    private static final DateTimeFormatter NCSA_TIME = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ENGLISH);

    /** A unit of a number: its name and milliseconds in one. */
    enum Unit {
        S("seconds", 1e3), MS("milliseconds", 1), US("microseconds", 1e-3), NS("nanoseconds", 1e-6);

        final String words;
        final double millis;

        Unit(String words, double millis) {
            this.words = words;
            this.millis = millis;
        }

        static Unit named(String s) {
            return switch (s.toLowerCase(Locale.ROOT)) {
                case "s", "sec", "seconds" -> S;
                case "ms", "millis", "milliseconds" -> MS;
                case "us", "µs", "micros", "microseconds" -> US;
                case "ns", "nanos", "nanoseconds" -> NS;
                default -> null;
            };
        }

        /** The unit a name ends in (took_s, ts_ms, elapsed_us, durationNanos), or null. */
        static Unit bySuffix(String name) {
            String n = name.toLowerCase(Locale.ROOT);
            // the smaller units first: "milliseconds" ends in "seconds" too
            if (n.matches(".*[_-]ns|.*nanos|.*nanoseconds")) return NS;
            if (n.matches(".*[_-](us|µs)|.*micros|.*microseconds")) return US;
            if (n.matches(".*[_-](ms|msecs?)|.*millis|.*milliseconds")) return MS;
            if (n.matches("(.*[_-])?(s|secs?)|.*seconds")) return S;
            return null;
        }

        /** An epoch time's unit by its magnitude: seconds ~1.7e9, ms ~1.7e12, µs ~1.7e15, ns ~1.7e18. */
        static Unit ofEpoch(double v) {
            double a = Math.abs(v);
            return a < 1e11 ? S : a < 1e14 ? MS : a < 1e17 ? US : NS;
        }
    }

    /** The field a user mapped: its name in the log and its unit (null: by its name or magnitude). */
    record Mapped(String name, Unit unit) {}

    private final Map<String, Mapped> given;
    /** What each field was read from, with how its unit was found: said once, for the first line that had it. */
    private final Map<String, String> said = new TreeMap<>((a, b) -> FIELDS.indexOf(a) - FIELDS.indexOf(b));
    /** The first line's field --field named and no line had. */
    private String missing;

    private JsonShapes(Map<String, Mapped> given) {
        this.given = given;
    }

    /** The known shapes only. */
    static JsonShapes known() {
        return new JsonShapes(Map.of());
    }

    /**
     * The shapes with --field's map (repeatable, comma lists of FIELD=NAME[:UNIT]); refused in one line: a field of no
     * request (--field foo=bar), a map without '=', a unit not known.
     */
    static JsonShapes of(List<String> fields) throws UsageError {
        Map<String, Mapped> given = new LinkedHashMap<>();
        for (String f : fields) {
            int eq = f.indexOf('=');
            if (eq <= 0 || eq == f.length() - 1) throw new UsageError("--field takes FIELD=NAME (e.g. time=ts,path=uri), not '" + f + "'");
            String field = f.substring(0, eq).strip().toLowerCase(Locale.ROOT), name = f.substring(eq + 1).strip();
            if (!FIELDS.contains(field)) throw new UsageError("--field " + f + ": " + field + " is no field of a request (" + String.join(", ", FIELDS) + ")");
            Unit unit = null;
            int colon = name.lastIndexOf(':');
            if (colon > 0) {
                unit = Unit.named(name.substring(colon + 1));
                if (unit == null) throw new UsageError("--field " + f + ": the unit after ':' is s, ms, us or ns, not '" + name.substring(colon + 1) + "'");
                name = name.substring(0, colon);
            }
            given.put(field, new Mapped(name, unit));
        }
        return new JsonShapes(given);
    }

    /** The line as a request, or null when it is not one (not an object, a field missing or unreadable). */
    LogFormat.Line parse(String line) {
        String t = line.strip();
        if (!t.startsWith("{")) return null;
        JsonNode n;
        try {
            n = JSON.readTree(t);
        } catch (Exception e) {
            return null;
        }
        if (n == null || !n.isObject()) return null;
        try {
            Found time = find(n, "time"), method = find(n, "method"), path = find(n, "path"), status = find(n, "status");
            if (time == null || path == null || status == null) return null;
            String target = path.node.asText();
            String verb = method == null ? null : method.node.asText();
            // nginx's $request and the like: the request line, "GET /a?b=c HTTP/1.1"
            if (target.indexOf(' ') > 0) {
                String[] r = target.split(" ");
                if (verb == null) verb = r[0];
                target = r.length > 1 ? r[1] : "";
            }
            target = LogFormat.target(target);
            if (verb == null || !verb.matches("[A-Za-z]+") || !target.startsWith("/")) return null;
            int code = status.node.canConvertToInt() ? status.node.asInt() : Integer.parseInt(status.node.asText().strip());
            long millis = epochMillis(time);
            double duration = -1;
            Found d = find(n, "duration");
            if (d != null && !d.node.asText().isBlank() && !d.node.asText().equals("-")) {
                Unit u = d.unit != null ? d.unit : UNIT_BY_NAME.containsKey(d.name) ? UNIT_BY_NAME.get(d.name) : Unit.bySuffix(d.name);
                String how = d.unit != null ? "as --field says" : u != null ? "by its name" : "assumed; --field duration=" + d.name + ":s says otherwise";
                if (u == null) u = Unit.MS;
                duration = Double.parseDouble(d.node.asText().strip()) * u.millis;
                say("duration", d.name + " (" + u.words + ", " + how + ")");
            }
            say("method", method == null ? "the request line's" : method.name);
            say("path", path.name);
            say("status", status.name);
            return new LogFormat.Line(millis, verb.toUpperCase(Locale.ROOT), target, code, duration);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** A field of the line: the node and the name it was found under, with the unit the user gave. */
    private record Found(String name, JsonNode node, Unit unit) {}

    private Found find(JsonNode n, String field) {
        Mapped m = given.get(field);
        if (m != null) {
            JsonNode v = at(n, m.name);
            if (v == null && missing == null) missing = field + "=" + m.name;
            return v == null ? null : new Found(m.name, v, m.unit);
        }
        for (String name : NAMES.get(field)) {
            JsonNode v = n.get(name);
            if (v != null && !v.isNull() && !v.isContainerNode()) return new Found(name, v, null);
        }
        return null;
    }

    /** A field by its name, or by a dotted path into nested objects (request.uri). */
    private static JsonNode at(JsonNode n, String name) {
        JsonNode v = n.get(name);
        if (v == null && name.contains(".")) {
            v = n;
            for (String p : name.split("\\.")) v = v == null ? null : v.get(p);
        }
        return v == null || v.isNull() || v.isContainerNode() ? null : v;
    }

    /** The time in epoch milliseconds: a number in its unit, or text as ISO-8601, NCSA's or a number's. */
    private long epochMillis(Found time) {
        String text = time.node.asText().strip();
        boolean number = time.node.isNumber() || text.matches("-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?");
        if (number) {
            double v = time.node.isNumber() ? time.node.asDouble() : Double.parseDouble(text);
            Unit u = time.unit != null ? time.unit : UNIT_BY_NAME.containsKey(time.name) ? UNIT_BY_NAME.get(time.name) : Unit.bySuffix(time.name);
            String how = time.unit != null ? "as --field says" : u != null ? "by its name" : "by its magnitude";
            if (u == null) u = Unit.ofEpoch(v);
            say("time", time.name + " (epoch " + u.words + ", " + how + ")");
            return Math.round(v * u.millis);
        }
        long t;
        if (text.contains("/")) t = OffsetDateTime.parse(text, NCSA_TIME).toInstant().toEpochMilli();
        else {
            String iso = text.replace(' ', 'T');
            try {
                t = Instant.from(DateTimeFormatter.ISO_OFFSET_DATE_TIME.parse(iso)).toEpochMilli();
            } catch (RuntimeException e) {
                t = LocalDateTime.parse(iso).toInstant(ZoneOffset.UTC).toEpochMilli(); // no offset: taken as UTC
            }
        }
        say("time", time.name + " (a date and time)");
        return t;
    }

    private void say(String field, String how) {
        said.putIfAbsent(field, how);
    }

    /** What each field was read from and in which unit, e.g. "time=msec (epoch seconds, by its name), ...", or "" before any line. */
    String said() {
        List<String> out = new ArrayList<>();
        said.forEach((k, v) -> out.add(k + "=" + v));
        return String.join(", ", out);
    }

    /** The field --field named that a line did not have ("path=uri"), or null. */
    String missing() {
        return missing;
    }
}
