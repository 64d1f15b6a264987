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
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.experiment.ab.AbExperiment;
import vtlab.experiment.ab.Service;
import vtlab.experiment.scenario.Scenario;
import vtlab.experiment.scenario.ScenarioExperiment;
import vtlab.experiment.scenario.ScenarioWriter;
import vtlab.stack.Mix;

/**
 * ./vtlab init --app JAR | --cmd "..." | --stack NAME [--out FILE] [ab's service options]: writes a commented starting
 * scenario file (docs/scenarios.md) for that service: every key with its default, the thresholds commented out. It
 * takes the options that describe the service in ./vtlab ab (--port, --env, --virtual-args, --url with its --method,
 * --header, --body, ...) and writes each where the file keeps it: [service] keys, or one [[requests]] per --url. The
 * file written is read back as ./vtlab run reads it, so init never leaves a file that run refuses.
 */
final class InitCommand implements Command {
    static final String USAGE = "./vtlab init --app JAR | --cmd \"...\" | --stack NAME [--out scenario.toml] [--port N] [--url PATH ... | --from-log FILE]";
    static final Opt STACK = vtlab.experiment.scenario.ScenarioExperiment.STACK.withHelp("the service: one of the lab's stacks (./vtlab list)");
    static final Opt OUT = Opt.of("out", "scenario.toml", "the file to write (refused when it exists)");
    static final Opt PORT = vtlab.plan.RunOptions.PORT.withHelp("the port the service listens on, on 127.0.0.1");
    static final Opt FROM_LOG = Opt.of("from-log", null, "an access log (NCSA common or combined, Tomcat's or Spring Boot's default pattern, or\n"
            + "JSON lines: the lab's, nginx's, Envoy's or Logback's access fields, or --field's) whose traffic the\n"
            + "file replays: its requests as templates with their shares and the values seen (CSV files beside the\n"
            + "file; secret and personal values masked, never written), its arrival rate as the\n"
            + "open model's rate profile, its peak in flight (where durations are logged) as the closed model's conc");
    static final Opt LOG_FORMAT = Opt.of("log-format", null, "with --from-log: " + String.join(", ", vtlab.experiment.scenario.accesslog.LogFormat.NAMES)
            + " (tomcat, spring-boot: their default pattern, common; default: detected)");
    static final Opt SPEEDUP = Opt.of("speedup", "1", "with --from-log: the log's pace compressed N times (2: its hour in 30 minutes)");
    static final Opt REPLAY_WRITES = Opt.of("replay-writes", null, "with --from-log: the methods beside GET and HEAD replayed, e.g. POST,DELETE (sent without a body)")
            .typed(Opt.Type.STRINGS);
    static final Opt KEEP = Opt.of("keep", null, "with --from-log: a query key, the path word before a segment or a placeholder name whose values\n"
            + "are never masked (repeatable, or a comma list), e.g. --keep q")
            .typed(Opt.Type.STRINGS);
    static final Opt MASK = Opt.of("mask", null, "with --from-log: a key (as --keep) whose values are always masked: sent from an\n"
            + "environment variable (VTLAB_SECRET_NAME), never written (repeatable, or a comma list)")
            .typed(Opt.Type.STRINGS);
    static final Opt FIELD = Opt.of("field", null, "with --from-log, JSON lines: the name a field of the request has in the log, FIELD=NAME[:UNIT],\n"
            + "FIELD one of " + String.join(", ", vtlab.experiment.scenario.accesslog.LogImport.FIELDS) + " (UNIT s, ms, us, ns; a dotted NAME reads a nested\n"
            + "object), e.g. --field time=ts,path=req.uri,duration=took:s (default: the common shapes' names)")
            .typed(Opt.Type.STRINGS);
    static final Opt PACE = Opt.of("pace", "profile", "with --from-log: profile (the log's rate in at most 20 steps) or logged (each second of the\n"
            + "log at its own rate: its arrivals at their logged times, to the second; vegeta, a step each)").withChoices(List.of("profile", "logged"));
    static final Opt JVM_ARGS = vtlab.plan.RunOptions.JVM_ARGS.withHelp("the service's JVM options (default: its own)");
    /** ab's options that make the file's [[requests]]: one request per --url, each with the method, headers, body and answer given. */
    static final List<Opt> REQUEST = List.of(Service.URL, Service.METHOD, Service.HEADER, Service.BODY, Service.EXPECT_STATUS, Service.EXPECT_BODY);
    /** The options that only --from-log takes. */
    static final List<Opt> LOG_ONLY = List.of(LOG_FORMAT, SPEEDUP, REPLAY_WRITES, KEEP, MASK, FIELD, PACE);
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
        all.addAll(List.of(FROM_LOG, LOG_FORMAT, SPEEDUP, REPLAY_WRITES, KEEP, MASK, FIELD, PACE));
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
                  --from-log FILE writes the traffic of an access log instead (docs/scenarios.md, "From an access
                  log"): its requests as templates with their shares (GET and HEAD; --replay-writes POST,... for
                  others), the values seen in CSV files beside the file, its arrival rate as an open-model rate
                  profile (--speedup N compresses it; --pace logged: each second of the log at its own rate) and,
                  where it logs durations, its peak in flight as --conc. Beside the file, the log's baseline
                  (NAME-baseline.json: each request's share, the rate per second, the gaps between arrivals and the
                  values' spread), against which ./vtlab run measures the replay's fidelity (fidelity_* thresholds).
                  The file names its generator: vegeta (each request's own p50/p99, in either model).
                  Secret and personal values (tokens, JWTs, API keys, e-mail addresses, card numbers; keys such as
                  token, code, otp, session, password, signature), in a query or a path, are masked: said with their
                  counts, never written, sent from an environment variable the file names (VTLAB_SECRET_NAME); --keep
                  and --mask decide a key. Bytes that are not UTF-8 are read with replacement, JSON lines of nginx's,
                  Envoy's and Logback's access shapes (or --field's) read, far-off times left out; each said.

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
        long given = Stream.of(Service.APP, Service.CMD, STACK).filter(opt -> opt.given(o)).count();
        if (given != 1) throw new UsageError("init needs the service, one of them: " + USAGE);
        Path file = Path.of(OUT.string(o));
        if (Files.exists(file)) throw new UsageError(file + " exists: give another --out or remove it");
        String name = file.getFileName().toString().replaceFirst("\\.toml$", "");
        if (FROM_LOG.given(o)) return fromLog(o, file, name, out);
        for (Opt k : LOG_ONLY) if (k.given(o)) throw new UsageError("--" + k.name() + " goes with --from-log FILE");
        Scenario sc = Scenario.of(name, options(o, service(o)), mixOf(o), List.of(), Map.of());
        write(file, sc, List.of("A vtlab scenario (docs/scenarios.md): ./vtlab run " + file.getFileName()), out);
        out.println("vtlab: wrote " + file + ": edit its requests, then ./vtlab run " + file);
        return 0;
    }

    /**
     * --from-log: the log's traffic as the file's requests, values (a CSV file beside it per request with values), rate
     * profile and concurrency, with the service options given; nothing written when the log is refused or a file it
     * would write exists.
     */
    int fromLog(Options o, Path file, String name, PrintStream out) throws Exception {
        if (Files.exists(file)) throw new UsageError(file + " exists: give another --out or remove it");
        if (Service.URL.given(o)) throw new UsageError("--url and --from-log: the log says the requests; give one of them");
        double speedup;
        try {
            speedup = Double.parseDouble(SPEEDUP.string(o));
        } catch (NumberFormatException e) {
            throw new UsageError("--speedup takes a number above 0, not '" + SPEEDUP.string(o) + "'");
        }
        Map<String, List<String>> service = service(o);
        var choices = new vtlab.experiment.scenario.accesslog.LogImport.Choices(KEEP.every(o), MASK.every(o), FIELD.every(o));
        var log = vtlab.experiment.scenario.accesslog.LogImport.read(Path.of(FROM_LOG.string(o)), LOG_FORMAT.string(o), speedup,
                new LinkedHashSet<>(REPLAY_WRITES.given(o) ? List.of(REPLAY_WRITES.string(o).split(",")) : List.of()), name, choices);
        if (log.requests() == null) throw new UsageError("--from-log " + FROM_LOG.string(o) + ": no request to replay (" + String.join("; ", log.notes()) + ")");
        Path dir = file.toAbsolutePath().getParent();
        for (String csv : log.csv().keySet()) if (Files.exists(dir.resolve(csv))) throw new UsageError(dir.resolve(csv) + " exists: give another --out or remove it");
        String baseline = name + "-baseline.json"; // what a replay's fidelity is measured against (Baseline)
        if (Files.exists(dir.resolve(baseline))) throw new UsageError(dir.resolve(baseline) + " exists: give another --out or remove it");
        Map<String, List<String>> options = logOptions(service, log.rateProfile(), log.holdSeconds());
        Map<String, Path> csvFiles = new LinkedHashMap<>();
        Mix mix = log.requests();
        Map<String, Mix.Values> values = valuesBeside(mix, dir, csvFiles);
        var logged = vtlab.experiment.scenario.Baseline.of(new Mix(mix.entries(), values), log.arrivals(), speedup);
        if ("logged".equals(PACE.choice(o))) options.put("rate-profile", List.of(logged.loggedProfile()));
        Scenario sc = Scenario.of(name, options, new Mix(mix.entries(), values), List.of(), csvFiles).withBaseline(baseline);
        List<String> header = new ArrayList<>(List.of("A vtlab scenario (docs/scenarios.md) from the access log " + Path.of(FROM_LOG.string(o)).toAbsolutePath().normalize()
                + ": ./vtlab run " + file.getFileName()));
        log.notes().forEach(n -> header.add("  " + n));
        header.add("  weights: each template's share of the requests replayed, in hundredths of a percent; {name}: the values seen, from the CSV beside");
        header.add("  the open model at the log's rate" + (log.conc() > 0 ? "; the closed model: ./vtlab run " + file.getFileName() + " --conc " + log.conc() : ""));
        List<Path> written = new ArrayList<>();
        try {
            Files.createDirectories(dir);
            for (var c : log.csv().entrySet()) {
                Path at = dir.resolve(c.getKey());
                StringBuilder text = new StringBuilder();
                for (List<String> row : c.getValue()) text.append(String.join(",", row.stream().map(vtlab.data.Dataset::csv).toList())).append('\n');
                Files.writeString(at, text, java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE);
                written.add(at);
            }
            logged.write(dir.resolve(baseline));
            written.add(dir.resolve(baseline));
            write(file, sc, header, out);
        } catch (UsageError | IOException | RuntimeException e) {
            for (Path p : written) Files.deleteIfExists(p);
            throw e;
        }
        out.println("vtlab: wrote " + file + " (" + mix.entries().size() + " requests" + (log.csv().isEmpty() ? "" : ", " + log.csv().size() + " CSV files beside it")
                + ") from " + FROM_LOG.string(o) + ": " + log.notes().getFirst());
        for (String n : log.notes().subList(1, log.notes().size())) out.println("vtlab:   " + n);
        out.println("vtlab:   the log's baseline in " + dir.resolve(baseline).getFileName() + ": a replay's fidelity to the log (its mix, rate, gaps and values) is measured against it");
        out.println("vtlab: ./vtlab run " + file + (log.conc() > 0 ? " (open model; closed: --conc " + log.conc() + ")" : ""));
        return 0;
    }

    /** The file's options: the service's, then the log's rate replayed open, once, on both thread modes. */
    private static Map<String, List<String>> logOptions(Map<String, List<String>> service, String rateProfile, long holdSeconds) {
        Map<String, List<String>> options = new LinkedHashMap<>(service);
        options.put("load-model", List.of("open"));
        options.put("rate-profile", List.of(rateProfile));
        options.put("warmup", List.of("0s"));
        options.put("hold", List.of(holdSeconds + "s"));
        options.put("reps", List.of("1"));
        options.put("modes", List.of("platform,virtual"));
        options.put("generator", List.of("vegeta")); // each request measured apart, in either model; its results say what was sent
        return options;
    }

    /** The mix's values, each column read from a CSV file in dir (added to csvFiles by its name), the others as they are. */
    private static Map<String, Mix.Values> valuesBeside(Mix mix, Path dir, Map<String, Path> csvFiles) {
        Map<String, Mix.Values> values = new LinkedHashMap<>();
        for (var v : mix.values().entrySet()) {
            if (v.getValue() instanceof Mix.Column c) {
                Path at = dir.resolve(c.file());
                csvFiles.put(c.file().toString(), at);
                values.put(v.getKey(), new Mix.Column(at, c.column(), c.cells()));
            } else values.put(v.getKey(), v.getValue());
        }
        return values;
    }

    /**
     * The file written by the scenario's writer, then read back as ./vtlab run reads it (removed and refused when it
     * does not read); never over a file that exists.
     */
    static void write(Path file, Scenario sc, List<String> header, PrintStream out) throws IOException, UsageError {
        if (Files.exists(file)) throw new UsageError(file + " exists: give another --out or remove it");
        if (file.toAbsolutePath().getParent() != null) Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, ScenarioWriter.text(sc, header, null, sc.csvNames()), java.nio.file.StandardOpenOption.CREATE_NEW,
                java.nio.file.StandardOpenOption.WRITE);
        try {
            Scenario.read(file, ScenarioExperiment.metrics());
        } catch (UsageError e) {
            Files.deleteIfExists(file);
            throw new UsageError("init: the file would not read back, not written: " + e.getMessage());
        }
    }

    /**
     * The [service] options of the file from the service options given (checked as ab checks them): the service, each
     * [service] key given, and how a command's thread mode is switched when none is given.
     */
    static Map<String, List<String>> service(Options o) throws UsageError {
        Map<String, List<String>> service = new LinkedHashMap<>();
        boolean switched = Stream.of(Service.VIRTUAL_ARGS, Service.VIRTUAL_ENV, Service.PLATFORM_ARGS, Service.PLATFORM_ENV).anyMatch(opt -> opt.given(o));
        if (Service.APP.given(o)) {
            Path jar = Path.of(Service.APP.string(o)).toAbsolutePath().normalize();
            if (!Files.isRegularFile(jar)) throw new UsageError("--app " + jar + ": no such file");
            service.put("app", List.of(jar.toString()));
        } else if (Service.CMD.given(o)) {
            service.put("cmd", List.of(Service.CMD.string(o)));
            if (!switched) {
                service.put("virtual-env", List.of("VIRTUAL=true"));
                service.put("platform-env", List.of("VIRTUAL=false"));
            }
        } else {
            vtlab.stack.Stack.load(STACK.string(o)); // refused here when it is no stack of the lab
            service.put("stack", List.of(STACK.string(o)));
        }
        for (String key : SERVICE_KEYS) if (o.has(key)) service.put(key, values(o, key));
        return service;
    }

    /** The file's options: the service's, then init's starting load (50 connections, 10 s warmup, 20 s hold) and both modes. */
    static Map<String, List<String>> options(Options o, Map<String, List<String>> service) {
        Map<String, List<String>> all = new LinkedHashMap<>(service);
        all.put("conc", List.of("50"));
        all.put("warmup", List.of("10s"));
        all.put("hold", List.of("20s"));
        all.put("reps", List.of("1"));
        all.put("modes", List.of("platform,virtual"));
        all.put("generator", List.of("vegeta")); // named, so a threshold added later never changes it
        return all;
    }

    /** The path a stack answers without placeholders (its first endpoint's otherwise), "/" for a jar or a command. */
    static String firstPath(Options o) throws UsageError {
        if (!STACK.given(o)) return "/";
        vtlab.stack.Stack stack = vtlab.stack.Stack.load(STACK.string(o));
        return stack.workloads().values().stream().map(vtlab.stack.Stack.Workload::path).filter(x -> !x.contains("{")).findFirst().orElse("/");
    }

    /** A [service] key's values as the file's reader gives them, from the option of the same name (checked as ab checks it). */
    static List<String> values(Options o, String key) throws UsageError {
        if (key.equals("port")) {
            int port = PORT.integer(o);
            if (port > 65535) throw new UsageError("--port takes 1 to 65535, not " + port);
            return List.of(Integer.toString(port));
        }
        if (key.equals("start-timeout")) {
            o.duration(key, null, false);
            return List.of(o.string(key, ""));
        }
        Opt declared = declared().stream().filter(d -> d.name().equals(key)).findFirst().orElseThrow();
        Opt.Type type = declared.type();
        if (type == Opt.Type.ENV) {
            for (String kv : o.every(key)) if (kv.indexOf('=') <= 0) throw new UsageError("--" + key + " takes K=V, not '" + kv + "'");
            return o.every(key);
        }
        if (type == Opt.Type.REPEATED) return o.every(key);
        if (type == Opt.Type.STRINGS) return List.of(String.join(",", declared.choices().isEmpty() ? o.every(key) : declared.chosen(o)));
        return List.of(o.string(key, ""));
    }

    /** The mix: one request per --url (ab's request options on each), else one of the first path the service answers. */
    static Mix mixOf(Options o) throws UsageError {
        List<String> urls = Service.URL.every(o);
        boolean anyRequestOption = REQUEST.stream().anyMatch(opt -> opt.given(o));
        if (urls.isEmpty() && anyRequestOption) throw new UsageError("--method, --header, --body, --expect-status and --expect-body describe a --url: give one");
        if (urls.isEmpty()) {
            return new Mix(List.of(new Mix.Entry("home", "GET", firstPath(o), List.of(), null, 200, "", 1)), Map.of());
        }
        String method = Service.METHOD.string(o).toUpperCase(java.util.Locale.ROOT);
        List<vtlab.stack.Request.Header> headers = new ArrayList<>();
        for (String h : Service.HEADER.every(o)) {
            int colon = h.indexOf(':');
            if (colon <= 0) throw new UsageError("--header takes \"Name: value\", not '" + vtlab.core.Secrets.header(h) + "'");
            headers.add(new vtlab.stack.Request.Header(h.substring(0, colon).strip(), h.substring(colon + 1).strip()));
        }
        String body = null;
        if (Service.BODY.given(o)) {
            body = Service.BODY.string(o);
            if (body.startsWith("@")) {
                Path f = Path.of(body.substring(1));
                try {
                    body = Files.readString(f);
                } catch (MalformedInputException e) {
                    throw new UsageError("--body " + Service.BODY.string(o) + ": not UTF-8 text, which a scenario file's body is");
                } catch (IOException e) {
                    throw new UsageError("--body " + Service.BODY.string(o) + ": no such readable file");
                }
            }
        }
        String status = Service.EXPECT_STATUS.string(o);
        if (!status.equalsIgnoreCase("2xx") && !status.matches("[1-5]\\d\\d")) {
            throw new UsageError("--expect-status takes a status code from 100 to 599 or 2xx, not '" + status + "'");
        }
        List<Mix.Entry> entries = new ArrayList<>();
        Set<String> names = new LinkedHashSet<>();
        for (String url : urls) {
            if (!url.startsWith("/")) throw new UsageError("--url takes a path on the service, e.g. /api/orders/1, not '" + url + "'");
            if (url.contains("{")) throw new UsageError("--url " + url + ": braces are placeholders in a scenario file; add that request with its [values] by hand");
            String base = url.replaceFirst("\\?.*", "").replaceAll("[^A-Za-z0-9]+", "-").replaceAll("^-|-$", "").toLowerCase(java.util.Locale.ROOT);
            String name = base.isEmpty() ? "home" : base;
            for (int i = 2; !names.add(name); i++) name = (base.isEmpty() ? "home" : base) + "-" + i;
            entries.add(new Mix.Entry(name, method, url, headers, body, status.equalsIgnoreCase("2xx") ? 2 : Integer.parseInt(status),
                    Objects.requireNonNullElse(Service.EXPECT_BODY.string(o), ""), 1));
        }
        return new Mix(entries, Map.of());
    }

}
