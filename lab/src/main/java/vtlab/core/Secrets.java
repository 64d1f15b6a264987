package vtlab.core;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Values the lab passes on but never writes: a setting whose name looks secret (a database password given with
 * --env, an Authorization header given with --header) reaches the service or the generator as given, and is written
 * as {@link #MASK} into everything the run folder keeps (environment.json, SUT logs, generator commands and scripts).
 */
public final class Secrets {
    public static final String MASK = "***";
    private static final Pattern SECRET_KEY = Pattern.compile("(?i).*(PASSWORD|PASSWD|SECRET|TOKEN|KEY|CREDENTIAL).*");
    /** Headers that carry credentials whatever their name says (a session cookie). */
    private static final Set<String> SECRET_HEADERS = Set.of("authorization", "proxy-authorization", "cookie");
    /** Options whose values are K=V settings (the service's environment). */
    public static final Set<String> ENV_OPTIONS = Set.of("env", "platform-env", "virtual-env");
    /** Options whose values are "Name: value" request headers. */
    public static final Set<String> HEADER_OPTIONS = Set.of("header");
    /** Options whose values are argument lists (JVM or program arguments: -Dspring.datasource.password=..., --db.token=...). */
    public static final Set<String> ARGS_OPTIONS = Set.of("jvm-args", "platform-args", "virtual-args");

    private Secrets() {}

    /** Whether a setting named so holds a secret: PASSWORD, SECRET, TOKEN, KEY, CREDENTIAL in any case. */
    public static boolean secretKey(String name) {
        return SECRET_KEY.matcher(name).matches();
    }

    /** Whether a request header named so holds a credential (Authorization, Cookie, or a secret-looking name). */
    public static boolean secretHeader(String name) {
        return SECRET_HEADERS.contains(name.toLowerCase(java.util.Locale.ROOT)) || secretKey(name);
    }

    /** The environment as written: secret values masked. */
    public static Map<String, String> env(Map<String, String> env) {
        Map<String, String> out = new LinkedHashMap<>();
        env.forEach((k, v) -> out.put(k, secretKey(k) ? MASK : v));
        return out;
    }

    /** "K=V" as written: V masked when K looks secret. */
    public static String assignment(String kv) {
        int eq = kv.indexOf('=');
        return eq > 0 && secretKey(kv.substring(0, eq)) ? kv.substring(0, eq + 1) + MASK : kv;
    }

    /** "Name: value" as written: the value masked when the header carries a credential. */
    public static String header(String nameValue) {
        int colon = nameValue.indexOf(':');
        return colon > 0 && secretHeader(nameValue.substring(0, colon).strip()) ? nameValue.substring(0, colon + 1) + " " + MASK : nameValue;
    }

    /**
     * One argument as written: "-Dkey=value", "--key=value" or "key=value" with the value masked when the key looks
     * secret. A secret-looking flag followed by its value as the next argument ("--password x") is {@link #args}'s.
     */
    public static String arg(String a) {
        int eq = a.indexOf('=');
        if (eq <= 0) return a;
        String key = a.substring(0, eq).replaceFirst("^(-D|--?)", "");
        return secretKey(key) ? a.substring(0, eq + 1) + MASK : a;
    }

    /** Arguments as written: each by {@link #arg}, and the value after a secret-looking flag without '=' masked. */
    public static List<String> args(List<String> args) {
        List<String> out = new ArrayList<>(args.size());
        boolean maskNext = false;
        for (String a : args) {
            if (maskNext && !a.startsWith("-")) {
                out.add(MASK);
                maskNext = false;
                continue;
            }
            maskNext = a.startsWith("-") && a.indexOf('=') < 0 && secretKey(a.replaceFirst("^-+", ""));
            out.add(arg(a));
        }
        return out;
    }

    /** An argument list given as one string (--platform-args "..."), as written. */
    public static String argsLine(String line) {
        return String.join(" ", args(List.of(line.strip().split("\\s+"))));
    }

    /** An option's value as written (env, header and argument-list options masked, any other as given). */
    public static String option(String name, String value) {
        if (ENV_OPTIONS.contains(name)) return assignment(value);
        if (HEADER_OPTIONS.contains(name)) return header(value);
        if (ARGS_OPTIONS.contains(name)) return argsLine(value);
        return value;
    }

    /** Parsed options as written. */
    public static Map<String, List<String>> options(Map<String, List<String>> options) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        options.forEach((name, values) -> out.put(name, values.stream().map(v -> option(name, v)).toList()));
        return out;
    }

    /** A command line as written: the values of env and header options (--name value or --name=value) masked. */
    public static List<String> commandLine(List<String> args) {
        List<String> out = new ArrayList<>(args.size());
        String pending = null;
        for (String a : args) {
            if (pending != null) {
                out.add(option(pending, a));
                pending = null;
                continue;
            }
            if (a.startsWith("--")) {
                int eq = a.indexOf('=');
                String name = eq < 0 ? a.substring(2) : a.substring(2, eq);
                if (ENV_OPTIONS.contains(name) || HEADER_OPTIONS.contains(name) || ARGS_OPTIONS.contains(name)) {
                    if (eq < 0) pending = name;
                    else {
                        out.add(a.substring(0, eq + 1) + option(name, a.substring(eq + 1)));
                        continue;
                    }
                }
            }
            out.add(a);
        }
        return out;
    }

    /** A tool's command as written: the header after each {@code flag} (oha's and hey's -H) masked when secret. */
    public static List<String> toolCommand(List<String> cmd, String flag) {
        List<String> out = new ArrayList<>(cmd);
        for (int i = 0; i + 1 < out.size(); i++) if (out.get(i).equals(flag)) out.set(i + 1, header(out.get(i + 1)));
        return out;
    }
}
