package vtlab.stack;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A weighted mix of requests sent within one load (a scenario file's [[requests]], docs/scenarios.md): each entry
 * its own method, path, headers, body and expected answer, and a weight; the placeholders of its path and body
 * ({id}) take a value drawn per request from a range or a CSV file's column, so caches and databases see many keys.
 * Generators that can send a mix ({@code Generator#sendsMix}) choose the entries by smooth weighted round robin (each
 * connection's or VU's sequence holds the weights exactly over every cycle of the total weight) and draw the values at
 * random; the values of one CSV file come from one row a request.
 *
 * @param values the value of each placeholder, by its name
 */
public record Mix(List<Entry> entries, Map<String, Values> values) {
    /** A placeholder: {name}, a letter then letters, digits or '_'. */
    public static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z][A-Za-z0-9_]*)}");

    public Mix {
        entries = List.copyOf(entries);
        values = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(values));
        if (entries.isEmpty()) throw new IllegalArgumentException("a mix has at least one request");
    }

    /**
     * One request of the mix.
     *
     * @param body         the body as text (placeholders filled), null for none
     * @param expectStatus a code, or a class as one digit (2: any 2xx), as {@link Stack.Workload}
     * @param expectBody   a regex the body must match before load ("" for any)
     */
    public record Entry(String name, String method, String path, List<Request.Header> headers, String body, int expectStatus,
                        String expectBody, int weight) {
        public Entry {
            headers = List.copyOf(headers);
            if (weight < 1) throw new IllegalArgumentException("a weight is at least 1");
        }

        /** The placeholders of its path and body, in order of appearance. */
        public Set<String> placeholders() {
            Set<String> out = new LinkedHashSet<>(Mix.placeholders(path));
            if (body != null) out.addAll(Mix.placeholders(body));
            return out;
        }

        /** The path with these values in its placeholders. */
        public String pathWith(Params drawn) {
            return fill(path, drawn);
        }

        /** The body with these values in its placeholders, or null for none. */
        public String bodyWith(Params drawn) {
            return body == null ? null : fill(body, drawn);
        }

        /** This entry as a workload with the given values (the check before load sends one of each). */
        public Stack.Workload workload(Params drawn) {
            Request.Body b = body == null ? null : Request.Body.of(fill(body, drawn).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            String p = pathWith(drawn);
            return new Stack.Workload(name, p, expectStatus, expectBody, null, new Request(method, headers, b), null, List.of());
        }
    }

    /** Where a placeholder's values come from. */
    public sealed interface Values permits Range, Column, Env {}

    /** Whole numbers from..to, both included, drawn uniformly. */
    public record Range(long from, long to) implements Values {
        public Range {
            if (to < from) throw new IllegalArgumentException("a range runs from its low to its high end");
        }
    }

    /** A CSV file's column (its cells, read when the scenario is read); one row a request for all columns of a file. */
    public record Column(Path file, String column, List<String> cells) implements Values {
        public Column {
            cells = List.copyOf(cells);
            if (cells.isEmpty()) throw new IllegalArgumentException(file + " has no rows");
        }
    }

    /**
     * A value the user supplies in an environment variable (a secret an access log's import masked: a token, an
     * e-mail): the file names the variable only, so the value is never written into it; value is the variable's
     * value when the scenario was read, null when it is unset (the run refuses it before anything starts).
     */
    public record Env(String variable, String value) implements Values {
        /** The variable read from this process's environment now. */
        public static Env of(String variable) {
            return new Env(variable, System.getenv(variable));
        }
    }

    /** The placeholder names in a template, in order. */
    public static List<String> placeholders(String template) {
        List<String> out = new ArrayList<>();
        Matcher m = PLACEHOLDER.matcher(template);
        while (m.find()) out.add(m.group(1));
        return out;
    }

    static String fill(String template, Params drawn) {
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder sb = new StringBuilder();
        while (m.find()) m.appendReplacement(sb, Matcher.quoteReplacement(drawn.getOrDefault(m.group(1), m.group())));
        m.appendTail(sb);
        return sb.toString();
    }

    /** The first value of every placeholder: a range's low end, a column's first row (what the check before load sends). */
    public Params firstValues() {
        Params out = Params.NONE;
        for (var e : values.entrySet()) out = out.with(e.getKey(), switch (e.getValue()) {
            case Range r -> Long.toString(r.from());
            case Column c -> c.cells().getFirst();
            case Env v -> v.value() == null ? "" : v.value();
        });
        return out;
    }

    public int totalWeight() {
        return entries.stream().mapToInt(Entry::weight).sum();
    }

    /** The CSV files the values come from, each with its columns by placeholder name (one row a request per file). */
    public Map<Path, Map<String, Column>> files() {
        Map<Path, Map<String, Column>> out = new LinkedHashMap<>();
        values.forEach((k, v) -> {
            if (v instanceof Column c) out.computeIfAbsent(c.file(), f -> new LinkedHashMap<>()).put(k, c);
        });
        return out;
    }

    /** The entries' names and weights, e.g. "owner:5+home:3+sizes:2" (a row's "mix" param). */
    public String spec() {
        return String.join("+", entries.stream().map(e -> e.name() + ":" + e.weight()).toList());
    }

    /** Each request's path template by its name, in order. */
    public Map<String, String> pathsByName() {
        Map<String, String> out = new LinkedHashMap<>();
        entries.forEach(e -> out.put(e.name(), e.path()));
        return out;
    }

    /**
     * Each request's count from counts by path as a server saw them: a path matched against each request's path
     * template (a placeholder any one segment, the query left out), in order; a path two requests share cannot be
     * told apart and counts for the first, one no request matches for none.
     *
     * @param templates each request's path template by its name
     */
    public static Map<String, Long> countsByName(Map<String, String> templates, Map<String, Long> byPath) {
        Map<String, Long> out = new LinkedHashMap<>();
        Map<String, Pattern> patterns = new LinkedHashMap<>();
        templates.forEach((name, path) -> {
            out.put(name, 0L);
            String p = path.replaceAll("\\?.*", "");
            StringBuilder re = new StringBuilder();
            int last = 0;
            Matcher m = PLACEHOLDER.matcher(p);
            while (m.find()) {
                re.append(Pattern.quote(p.substring(last, m.start()))).append("[^/]+");
                last = m.end();
            }
            re.append(Pattern.quote(p.substring(last)));
            patterns.put(name, Pattern.compile(re.toString()));
        });
        byPath.forEach((path, n) -> {
            for (var e : patterns.entrySet()) {
                if (e.getValue().matcher(path).matches()) {
                    out.merge(e.getKey(), n, Long::sum);
                    return;
                }
            }
        });
        return out;
    }
}
