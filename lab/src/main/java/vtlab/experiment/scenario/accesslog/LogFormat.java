package vtlab.experiment.scenario.accesslog;

import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The access-log formats an import reads, one line one request:
 * <ul>
 * <li>common: NCSA common, {@code %h %l %u %t "%r" %s %b}, which is also Tomcat's AccessLogValve default pattern and
 * Spring Boot's default {@code server.tomcat.accesslog.pattern} ("common"); no durations;
 * <li>combined: NCSA combined, common then {@code "%{Referer}i" "%{User-Agent}i"}; no durations;
 * <li>json: one JSON object a line, of the shapes {@link JsonShapes} knows (the lab's {@code time}, {@code method},
 * {@code path}, {@code status}, {@code duration_ms}; nginx's, Envoy's and Logback's access JSON; or a --field map),
 * the duration, where logged, giving the peak in flight.
 * </ul>
 */
public enum LogFormat {
    COMMON, COMBINED, JSON;

    /** One request of the log. durationMs: -1 when the format has none. */
    public record Line(long epochMillis, String method, String target, int status, double durationMs) {}

    /** The names --log-format takes, each with the format it reads (tomcat and spring-boot: their default, common). */
    public static final List<String> NAMES = List.of("common", "combined", "tomcat", "spring-boot", "json");

    private static final Pattern NCSA = Pattern.compile("^(\\S+) (\\S+) (.+?) \\[([^\\]]+)] \"([^\"]*)\" (\\d{3}) (\\S+)( \"(?:[^\"\\\\]|\\\\.)*\" \"(?:[^\"\\\\]|\\\\.)*\")?\\s*$");
    private static final DateTimeFormatter NCSA_TIME = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ENGLISH);

    /** The format a --log-format name reads, or null for a name of none. */
    public static LogFormat named(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "common", "tomcat", "spring-boot", "ncsa" -> COMMON;
            case "combined" -> COMBINED;
            case "json", "jsonl", "json-lines" -> JSON;
            default -> null;
        };
    }

    /** The last NCSA time read and its instant: a log's lines share their second many at a time. */
    private static final ThreadLocal<Object[]> LAST_TIME = ThreadLocal.withInitial(() -> new Object[] {"", 0L});

    /** The line as a request, or null when it is not one of this format. */
    public Line parse(String line) {
        if (this == JSON) return json(line);
        Matcher m = NCSA.matcher(line);
        if (!m.matches()) return null;
        boolean combined = m.group(8) != null;
        if (combined != (this == COMBINED)) return null;
        String[] r = m.group(5).split(" ");
        if (r.length < 2 || !r[0].matches("[A-Z]+")) return null;
        long t;
        try {
            t = ncsaTime(m.group(4));
        } catch (RuntimeException e) {
            return null;
        }
        return new Line(t, r[0], target(r[1]), Integer.parseInt(m.group(6)), -1);
    }

    private static long ncsaTime(String s) {
        Object[] last = LAST_TIME.get();
        if (s.equals(last[0])) return (Long) last[1];
        long t = OffsetDateTime.parse(s, NCSA_TIME).toInstant().toEpochMilli();
        last[0] = s;
        last[1] = t;
        return t;
    }

    /** A JSON line of any shape {@link JsonShapes} knows. */
    private static Line json(String line) {
        return JsonShapes.known().parse(line);
    }

    /** A request target as a path: an absolute URL's scheme and host left out. */
    static String target(String t) {
        if (t.startsWith("http://") || t.startsWith("https://")) {
            int slash = t.indexOf('/', t.indexOf("//") + 2);
            return slash < 0 ? "/" : t.substring(slash);
        }
        return t;
    }

    public String label() {
        return switch (this) {
            case COMMON -> "common (NCSA; Tomcat's and Spring Boot's default pattern %h %l %u %t \"%r\" %s %b)";
            case COMBINED -> "combined (NCSA)";
            case JSON -> "json (one object a line: the lab's, nginx's, Envoy's or Logback's access fields, or --field's)";
        };
    }
}
