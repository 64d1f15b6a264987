package vtlab.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.MalformedInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.experiment.ab.AbExperiment;
import vtlab.experiment.scenario.Scenario;
import vtlab.experiment.scenario.ScenarioExperiment;

/**
 * ./vtlab init --app JAR | --cmd "..." | --stack NAME [--out FILE] [ab's service options]: writes a commented starting
 * scenario file (docs/scenarios.md) for that service: every key with its default, the thresholds commented out. It
 * takes the options that describe the service in ./vtlab ab (--port, --env, --virtual-args, --url with its --method,
 * --header, --body, ...) and writes each where the file keeps it: [service] keys, or one [[requests]] per --url. The
 * file written is read back as ./vtlab run reads it, so init never leaves a file that run refuses.
 */
final class InitCommand implements Command {
    static final String USAGE = "./vtlab init --app JAR | --cmd \"...\" | --stack NAME [--out scenario.toml] [--port N] [--url PATH ...]";
    static final Opt STACK = vtlab.experiment.scenario.ScenarioExperiment.STACK.withHelp("the service: one of the lab's stacks (./vtlab list)");
    static final Opt OUT = Opt.of("out", "scenario.toml", "the file to write (refused when it exists)");
    static final Opt PORT = vtlab.plan.RunOptions.PORT.withHelp("the port the service listens on, on 127.0.0.1");
    static final Opt JVM_ARGS = vtlab.plan.RunOptions.JVM_ARGS.withHelp("the service's JVM options (default: its own)");
    /** ab's options that make the file's [[requests]]: one request per --url, each with the method, headers, body and answer given. */
    static final Set<String> REQUEST = Set.of("url", "method", "header", "body", "expect-status", "expect-body");
    /**
     * The [service] keys init writes from the options of the same name, in the order init declares them (app, cmd and
     * stack aside): each of its options a scenario file keeps in [service], as that option's declaration says.
     */
    static final List<String> SERVICE_KEYS = declared().stream().filter(o -> "service".equals(o.table()))
            .map(Opt::name).filter(n -> !Set.of("app", "cmd", "stack").contains(n)).toList();

    @Override
    public String name() {
        return "init";
    }

    /** Every option init takes: the service (ab's service options, --stack), --port, --jvm-args and --out. */
    static List<Opt> declared() {
        List<Opt> all = new ArrayList<>(AbExperiment.serviceOptions());
        all.add(1, STACK);
        all.add(JVM_ARGS);
        all.add(PORT);
        all.add(OUT);
        return all;
    }

    @Override
    public String help() {
        StringBuilder sb = new StringBuilder("Usage: " + USAGE + "\n" + """
                  writes a commented starting scenario file (docs/scenarios.md) for that service: every key with its
                  default, the thresholds commented out; then ./vtlab run FILE. It takes ./vtlab ab's options for the
                  service and writes each into the file: --port, --env and the modes' --virtual-args/--virtual-env and
                  their platform twins, --dependency ... as [service] keys; each --url as a request of the mix, with
                  the --method, --header, --body and --expect-status/--expect-body given.

                Options:
                """);
        for (String line : Opt.render(declared())) sb.append("  ").append(line).append('\n');
        return sb.toString();
    }

    @Override
    public Set<String> options() {
        Set<String> all = new LinkedHashSet<>();
        declared().forEach(opt -> all.add(opt.name()));
        return all;
    }

    @Override
    public int run(Options o, List<String> args, PrintStream out) throws Exception {
        if (!args.isEmpty()) throw new UsageError("init takes options only, not '" + args.getFirst() + "' (" + USAGE + ")");
        List<String> unknown = o.unknown(Main.withHelp(options()));
        if (!unknown.isEmpty()) throw new UsageError("init: option --" + unknown.getFirst() + " is not known (" + USAGE + "; ./vtlab init --help)");
        int given = (o.has("app") ? 1 : 0) + (o.has("cmd") ? 1 : 0) + (o.has("stack") ? 1 : 0);
        if (given != 1) throw new UsageError("init needs the service, one of them: " + USAGE);
        Path file = Path.of(o.string("out", "scenario.toml"));
        if (Files.exists(file)) throw new UsageError(file + " exists: give another --out or remove it");
        String path = "/";
        StringBuilder service = new StringBuilder();
        boolean switched = o.has("virtual-args") || o.has("virtual-env") || o.has("platform-args") || o.has("platform-env");
        if (o.has("app")) {
            Path jar = Path.of(o.string("app", "")).toAbsolutePath().normalize();
            if (!Files.isRegularFile(jar)) throw new UsageError("--app " + jar + ": no such file");
            service.append("app = ").append(quote(jar.toString())).append("     # a runnable jar; a Spring Boot jar is switched by the lab itself\n");
            if (!switched) service.append("# virtual-args = \"--my.virtual=true\"   # how a plain jar is switched (or platform-args, virtual-env, platform-env)\n");
        } else if (o.has("cmd")) {
            service.append("cmd = ").append(quote(o.string("cmd", ""))).append('\n');
            if (!switched) {
                service.append("virtual-env = { VIRTUAL = \"true\" }      # how its thread mode is switched: env or args per mode\n")
                        .append("platform-env = { VIRTUAL = \"false\" }\n");
            }
        } else {
            vtlab.stack.Stack stack = vtlab.stack.Stack.load(o.string("stack", "")); // refused here when it is no stack of the lab
            // its first endpoint without placeholders (a path the stack answers), else its first one's
            path = stack.workloads().values().stream().map(vtlab.stack.Stack.Workload::path).filter(x -> !x.contains("{")).findFirst().orElse("/");
            service.append("stack = ").append(quote(o.string("stack", ""))).append("     # one of the lab's stacks (./vtlab list)\n");
        }
        for (String key : SERVICE_KEYS) {
            if (o.has(key)) service.append(key).append(" = ").append(value(o, key)).append('\n');
        }
        if (!o.has("env")) service.append("# env = { SPRING_PROFILES_ACTIVE = \"bench\" }  # the service's own settings, both modes\n");
        if (!o.has("start-timeout")) service.append("# start-timeout = \"120s\"\n");
        if (!o.has("port")) service.append("# port = 18080\n");
        String text = """
                # A vtlab scenario (docs/scenarios.md): ./vtlab run %s
                # Every key of [service], [load], [run] and [slo] is the command-line option of the same name, with its
                # default; an option given on the command line beside the file overrides the file's.
                name = %s

                [service]
                %s
                [load]
                conc = [50]              # closed model: connections (or load-model = "open" with rates = [200])
                warmup = "10s"
                hold = "20s"
                reps = 1
                # generator = "wrk"      # wrk (closed) or vegeta (open, rate profiles): both send the mix (k6 too, opt-in); oha and hey cannot

                [run]
                modes = ["platform", "virtual"]
                # jdk = ["25"]

                [slo]
                thresholds = [
                  # "p99_ms[virtual] <= 100",
                  # "error_rate < 0.1%%",
                  # "throughput_rps[virtual] >= 1.2 * throughput_rps[platform]",
                ]

                # The requests, sent as one weighted mix within each load.
                %s
                # [[requests]]
                # name = "owner"
                # path = "/owners/{id}"   # {id}: drawn per request from [values]
                # weight = 3
                #
                # [values]
                # id = { from = 1, to = 10 }                     # or { csv = "owners.csv", column = "id" }
                """.formatted(file.getFileName(), quote(file.getFileName().toString().replaceFirst("\\.toml$", "")), service, requests(o, path));
        if (file.toAbsolutePath().getParent() != null) Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, text);
        try {
            Scenario.read(file, ScenarioExperiment.metrics());
        } catch (UsageError e) {
            Files.deleteIfExists(file);
            throw new UsageError("init: the file would not read back, not written: " + e.getMessage());
        }
        out.println("vtlab: wrote " + file + ": edit its requests, then ./vtlab run " + file);
        return 0;
    }

    /** A [service] key's value as TOML, from the option of the same name (checked as ab checks it). */
    static String value(Options o, String key) throws UsageError {
        if (key.equals("port")) {
            int port = o.positiveInt("port", 18080);
            if (port > 65535) throw new UsageError("--port takes 1 to 65535, not " + port);
            return Integer.toString(port);
        }
        if (key.equals("start-timeout")) {
            o.duration(key, null, false);
            return quote(o.string(key, ""));
        }
        Opt declared = declared().stream().filter(d -> d.name().equals(key)).findFirst().orElseThrow();
        Opt.Type type = declared.type();
        if (type == Opt.Type.ENV) {
            Map<String, String> env = new LinkedHashMap<>();
            for (String kv : o.every(key)) {
                int eq = kv.indexOf('=');
                if (eq <= 0) throw new UsageError("--" + key + " takes K=V, not '" + kv + "'");
                env.put(kv.substring(0, eq), kv.substring(eq + 1));
            }
            return table(env);
        }
        if (type == Opt.Type.STRINGS || type == Opt.Type.REPEATED) { // a list: one word each, or one comma list (--variants: of its choices)
            return list(declared.choices().isEmpty() ? o.every(key) : declared.chosen(o));
        }
        return quote(o.string(key, ""));
    }

    /** One [[requests]] per --url (ab's request options on each), else one request of the path given. */
    static String requests(Options o, String path) throws UsageError {
        List<String> urls = o.every("url");
        boolean anyRequestOption = REQUEST.stream().anyMatch(o::has);
        if (urls.isEmpty() && anyRequestOption) throw new UsageError("--method, --header, --body, --expect-status and --expect-body describe a --url: give one");
        if (urls.isEmpty()) {
            return "[[requests]]\nname = \"home\"\nmethod = \"GET\"\npath = " + quote(path) + "\nexpect-status = 200\nweight = 1\n";
        }
        String method = o.string("method", "GET").toUpperCase(java.util.Locale.ROOT);
        Map<String, String> headers = new LinkedHashMap<>();
        for (String h : o.every("header")) {
            int colon = h.indexOf(':');
            if (colon <= 0) throw new UsageError("--header takes \"Name: value\", not '" + vtlab.core.Secrets.header(h) + "'");
            headers.put(h.substring(0, colon).strip(), h.substring(colon + 1).strip());
        }
        String body = null;
        if (o.has("body")) {
            body = o.string("body", "");
            if (body.startsWith("@")) {
                Path f = Path.of(body.substring(1));
                try {
                    body = Files.readString(f);
                } catch (MalformedInputException e) {
                    throw new UsageError("--body " + o.string("body", "") + ": not UTF-8 text, which a scenario file's body is");
                } catch (IOException e) {
                    throw new UsageError("--body " + o.string("body", "") + ": no such readable file");
                }
            }
        }
        String status = o.string("expect-status", "2xx");
        if (!status.equalsIgnoreCase("2xx") && !status.matches("[1-5]\\d\\d")) {
            throw new UsageError("--expect-status takes a status code from 100 to 599 or 2xx, not '" + status + "'");
        }
        StringBuilder sb = new StringBuilder();
        Set<String> names = new LinkedHashSet<>();
        for (String url : urls) {
            if (!url.startsWith("/")) throw new UsageError("--url takes a path on the service, e.g. /api/orders/1, not '" + url + "'");
            if (url.contains("{")) throw new UsageError("--url " + url + ": braces are placeholders in a scenario file; add that request with its [values] by hand");
            String base = url.replaceFirst("\\?.*", "").replaceAll("[^A-Za-z0-9]+", "-").replaceAll("^-|-$", "").toLowerCase(java.util.Locale.ROOT);
            String name = base.isEmpty() ? "home" : base;
            for (int i = 2; !names.add(name); i++) name = (base.isEmpty() ? "home" : base) + "-" + i;
            sb.append(sb.isEmpty() ? "" : "\n").append("[[requests]]\nname = ").append(quote(name)).append("\nmethod = ").append(quote(method))
                    .append("\npath = ").append(quote(url)).append('\n');
            if (!headers.isEmpty()) sb.append("headers = ").append(table(headers)).append('\n');
            if (body != null) sb.append("body = ").append(quote(body)).append('\n');
            sb.append("expect-status = ").append(status.equalsIgnoreCase("2xx") ? "\"2xx\"" : status).append('\n');
            if (o.has("expect-body")) sb.append("expect-body = ").append(quote(o.string("expect-body", ""))).append('\n');
            sb.append("weight = 1\n");
        }
        return sb.toString();
    }

    /** A TOML inline table of strings; keys quoted unless bare. */
    static String table(Map<String, String> entries) {
        List<String> parts = new ArrayList<>();
        entries.forEach((k, v) -> parts.add((k.matches("[A-Za-z0-9_-]+") ? k : quote(k)) + " = " + quote(v)));
        return "{ " + String.join(", ", parts) + " }";
    }

    static String list(List<String> items) {
        return "[" + String.join(", ", items.stream().map(InitCommand::quote).toList()) + "]";
    }

    /** A TOML basic string. */
    static String quote(String s) {
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
