package vtlab.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parsed command line: positional words and `--name value` / `--name=value` / `--flag` options.
 * Typed getters validate and throw {@link UsageError} so bad input is refused before anything starts.
 */
public final class Options {
    private final List<String> positional = new ArrayList<>();
    private final Map<String, List<String>> values;
    /** Defaults that stand in for options not given (the demo's, footprint's): never mixed into {@link #asMap}. */
    private final Map<String, String> defaults;

    private Options(Map<String, List<String>> values, Map<String, String> defaults) {
        this.values = values;
        this.defaults = defaults;
    }

    private Options() {
        this(new LinkedHashMap<>(), Map.of());
    }

    /**
     * These options with other defaults for the ones not given, e.g. footprint's --conc 400 over servlet's: a view,
     * the command line itself unchanged (so the unknown-option check and environment.json see what was typed).
     */
    public Options withDefaults(Map<String, String> more) {
        Map<String, String> d = new LinkedHashMap<>(defaults);
        more.forEach(d::putIfAbsent);
        return new Options(values, Map.copyOf(d));
    }

    /** Words with no option among them (no flag to know of). */
    public static Options parse(List<String> args) throws UsageError {
        return parse(args, Set.of());
    }

    /**
     * Command-line words: "--name value", "--name=value", or a flag (an option that takes no value: the caller's
     * declared flags, the cli's from every declared option of type flag) standing alone.
     */
    public static Options parse(List<String> args, Set<String> flags) throws UsageError {
        Options o = new Options();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("-h")) a = "--help";
            if (!a.startsWith("--")) {
                o.positional.add(a);
                continue;
            }
            String name = a.substring(2);
            String value;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            } else if (flags.contains(name)) {
                value = "true";
            } else {
                if (i + 1 >= args.size()) throw new UsageError("option --" + name + " needs a value");
                value = args.get(++i);
            }
            if (name.isEmpty()) throw new UsageError("empty option name in '" + a + "'");
            o.values.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
        }
        return o;
    }

    /**
     * Options given by name rather than as command-line words (a scenario file's keys): each name's values as they
     * are, in order, no word parsed again; what {@link #parse} makes of "--name=value" for each.
     */
    public static Options of(Map<String, List<String>> byName) throws UsageError {
        Options o = new Options();
        for (var e : byName.entrySet()) {
            if (e.getKey().isEmpty()) throw new UsageError("empty option name");
            o.values.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).addAll(e.getValue());
        }
        return o;
    }

    public List<String> positional() {
        return positional;
    }

    /** Whether the option was given (or has a default from {@link #withDefaults}). */
    public boolean has(String name) {
        return values.containsKey(name) || defaults.containsKey(name);
    }

    private List<String> raw(String name) {
        List<String> v = values.get(name);
        if (v != null) return v;
        String d = defaults.get(name);
        return d == null ? null : List.of(d);
    }

    public boolean flag(String name) throws UsageError {
        String v = string(name, "false");
        return switch (v) {
            case "true", "yes", "on", "1" -> true;
            case "false", "no", "off", "0" -> false;
            default -> throw new UsageError("--" + name + " takes no value (or true/false), not '" + v + "'");
        };
    }

    /** The last value given for an option, or the default. */
    public String string(String name, String dflt) {
        List<String> v = raw(name);
        return v == null ? dflt : v.getLast();
    }

    /** Every value of a repeatable option as given, commas kept (an env value, a URL's query). */
    public List<String> every(String name) {
        List<String> given = raw(name);
        return given == null ? List.of() : List.copyOf(given);
    }

    /** Every value of a repeatable option (e.g. --jdk A --jdk B), comma lists flattened. */
    public List<String> all(String name) {
        List<String> out = new ArrayList<>();
        List<String> given = raw(name);
        for (String v : given == null ? List.<String>of() : given) {
            for (String p : v.split(",")) if (!p.isBlank()) out.add(p.trim());
        }
        return out;
    }

    /** A comma list restricted to allowed words, e.g. --modes platform,virtual. */
    public List<String> choices(String name, List<String> allowed, List<String> dflt) throws UsageError {
        if (!has(name)) return dflt;
        List<String> out = new ArrayList<>();
        for (String v : all(name)) {
            if (!allowed.contains(v)) throw notAChoice(name, v, allowed);
            if (!out.contains(v)) out.add(v);
        }
        if (out.isEmpty()) throw new UsageError("--" + name + " needs at least one value");
        return out;
    }

    /** The one line refusing a word that is not among the allowed ones, naming them. */
    static UsageError notAChoice(String name, String word, List<String> allowed) {
        return new UsageError("unknown value '" + word + "' for --" + name + " (choose from " + String.join(", ", allowed) + ")");
    }

    /** A comma list of positive whole numbers, e.g. --conc 400,1000. */
    public List<Integer> positiveInts(String name, List<Integer> dflt) throws UsageError {
        if (!has(name)) return dflt;
        List<Integer> out = new ArrayList<>();
        for (String v : all(name)) out.add(positive(name, v));
        if (out.isEmpty()) throw new UsageError("--" + name + " needs at least one number");
        return out;
    }

    public int positiveInt(String name, int dflt) throws UsageError {
        return has(name) ? positive(name, string(name, null)) : dflt;
    }

    private static int positive(String name, String v) throws UsageError {
        int n;
        try {
            n = Integer.parseInt(v.trim().replace("_", ""));
        } catch (NumberFormatException e) {
            throw new UsageError("--" + name + " takes positive whole numbers, not '" + v + "'");
        }
        if (n <= 0) throw new UsageError("--" + name + " must be positive, not " + n);
        return n;
    }

    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m)?");

    /** A duration like 20s, 500ms, 2m (plain numbers are seconds). */
    public Duration duration(String name, Duration dflt, boolean allowZero) throws UsageError {
        if (!has(name)) return dflt;
        String v = string(name, null).trim();
        Matcher m = DURATION.matcher(v);
        if (!m.matches()) throw new UsageError("--" + name + " takes a duration like 20s, 500ms or 2m, not '" + v + "'");
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        Duration d = switch (unit) {
            case "ms" -> Duration.ofMillis(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofSeconds(n);
        };
        if (d.isZero() && !allowZero) throw new UsageError("--" + name + " must be longer than zero");
        return d;
    }

    /** Names given on the command line that are not among the declared ones (the command's, experiments', global). */
    public List<String> unknown(Set<String> known) {
        return values.keySet().stream().filter(k -> !known.contains(k)).toList();
    }

    public Map<String, List<String>> asMap() {
        return values;
    }
}
