package vtlab.stack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import vtlab.core.UsageError;
import vtlab.proc.Env;

/**
 * A system under test, described by the `stack.json` in its folder under stacks/ (as TechEmpower's
 * benchmark_config.json): how to launch it, where its runtime-info is, and its workloads with the
 * response each must give before any load is sent. It also owns its configuration: every setting the SUT reads
 * (env variable, default, the runtime-info field that echoes it) and the tiers it needs, so every row of a stack
 * runs with the same documented defaults unless an experiment sets an axis ({@link #configure}).
 *
 * @param settings by name; "mode" is the thread mode (no default: every row names one)
 * @param tiers    tiers every row of this stack needs (e.g. pg: spring-mvc opens its pool at start-up)
 * @param expect   runtime-info fields with a fixed expected value (e.g. stack=servlet)
 * @param modes    the thread modes it declares (stack.json "modes"), by name: what runs a request and what bounds them
 * @param roles    its settings by role ({@link #REQUEST_POOL}, {@link #CONNECTION_CAP}): an experiment sets "the request
 *                 pool" and each stack names its own setting for it
 */
public record Stack(String name, String description, Path dir, Path jar, String runtimeInfoPath,
                    Map<String, Setting> settings, List<String> tiers, Map<String, Object> expect,
                    Map<String, Workload> workloads, Optional<StackData> data, Launch launch,
                    Map<String, ThreadMode> modes, Map<String, String> roles) {
    public static final String MODE = "mode";
    /** The role of the setting that sizes the pool running requests (Tomcat's maxThreads, Jetty's maxThreads). */
    public static final String REQUEST_POOL = "requestPool";
    /** The role of the setting that caps the connections a server accepts (Tomcat's maxConnections). */
    public static final String CONNECTION_CAP = "connectionCap";
    /**
     * The role of the setting that sizes the listening socket's backlog (Tomcat's acceptCount, Jetty's acceptQueueSize,
     * Helidon's backlog): connections past it wait for the kernel's retry, a second.
     */
    public static final String ACCEPT_QUEUE = "acceptQueue";
    /** The role of the setting that sizes an event-loop server's loops (Reactor Netty's ioWorkerCount). */
    public static final String EVENT_LOOPS = "eventLoops";

    /** A stack that declares no modes (a service from the command line): its mode setting's values, read as words. */
    public Stack(String name, String description, Path dir, Path jar, String runtimeInfoPath,
                 Map<String, Setting> settings, List<String> tiers, Map<String, Object> expect,
                 Map<String, Workload> workloads, Optional<StackData> data, Launch launch) {
        this(name, description, dir, jar, runtimeInfoPath, settings, tiers, expect, workloads, data, launch,
                ThreadMode.undeclared(settings), Map.of());
    }

    /** The declared thread mode of that name; a mode the stack does not declare is refused naming those it has. */
    public ThreadMode threadMode(String mode) throws UsageError {
        return ThreadMode.of(name, modes, mode);
    }

    /**
     * What runs the requests of a row's mode, as its stack declares it; a stack or mode the lab cannot read (a mode an
     * experiment names itself, e.g. faults' virtual-limit) is read from its name: virtual... on virtual threads.
     */
    public static ThreadMode.Threads threadsOf(String stack, String mode) {
        try {
            ThreadMode m = load(stack).modes().get(mode);
            if (m != null) return m.threads();
        } catch (UsageError e) {
            // not a stack of this lab: read from the name below
        }
        return mode != null && mode.startsWith(ThreadMode.Threads.VIRTUAL.word) ? ThreadMode.Threads.VIRTUAL : ThreadMode.Threads.PLATFORM;
    }

    /** The setting that plays a role ({@link #REQUEST_POOL}, {@link #CONNECTION_CAP}), or null where the stack has none. */
    public String role(String role) {
        return roles.get(role);
    }
    /** The lab's own stacks: their classes are under vtlab., and a JVM that is not up in 90 s is broken. */
    static final Launch OWN = new Launch(null, List.of("vtlab."), Duration.ofSeconds(90), false);

    /**
     * How the SUT starts besides {@link #jar}, and what the lab knows of its code.
     *
     * @param command      a command line run by sh, instead of java -jar (a service the lab did not build); null: the jar
     * @param appPackages  the service's own packages: pinning stacks are trimmed to their frames
     * @param startTimeout how long start-up may take before the row fails
     * @param aotCache     whether its jar starts from a JDK 25 AOT cache trained once per build (vtlab.tier.AotCache):
     *                     stack.json's launch.aotCache, or ab's --aot-cache
     */
    public record Launch(String command, List<String> appPackages, Duration startTimeout, boolean aotCache) {
        public Launch(String command, List<String> appPackages, Duration startTimeout) {
            this(command, appPackages, startTimeout, false);
        }

        public Launch withAotCache(boolean on) {
            return new Launch(command, appPackages, startTimeout, on);
        }
    }

    /**
     * Whether the SUT reports its configuration at {@link #runtimeInfoPath}. A service from the command line does
     * not: its thread mode is proven from a thread dump under load instead (see vtlab.run.ThreadModeCheck).
     */
    public boolean reportsRuntimeInfo() {
        return runtimeInfoPath != null;
    }

    /** Path the runner's drain times: runtime-info, else any path (a 404 is served by a request thread too). */
    public String drainPath() {
        return reportsRuntimeInfo() ? runtimeInfoPath : "/vtlab-drain";
    }

    /** Stacks defined by the command line (./vtlab ab), found by {@link #load} before stacks/ is read. */
    private static final Map<String, Stack> DEFINED = new java.util.concurrent.ConcurrentHashMap<>();

    /** Makes a stack built from options (not from a stack.json) known by its name to the rest of this run. */
    public static void define(Stack s) {
        DEFINED.put(s.name(), s);
    }

    /**
     * One endpoint to load. Path and service time may hold {param} placeholders filled from the row.
     *
     * @param request   what is sent (method, headers, body), exactly, by the check before load and every generator
     * @param bodyBytes request-body size as a template (e.g. "{bodyBytes}"): the body is that many bytes of 'x'
     *                  (overrides the request's body)
     * @param expectStatus a status code, or a class as one digit (2: any 2xx, a service's own endpoint)
     * @param mix       a weighted mix of requests sent within the one load instead of the request (a scenario file's),
     *                  null for none; the path is then the base the mix's paths go to
     */
    public record Workload(String name, String path, int expectStatus, String expectBody, String serviceMs, Request request,
                           String bodyBytes, List<String> tiers, Mix mix) {
        /** A workload of one request (no mix). */
        public Workload(String name, String path, int expectStatus, String expectBody, String serviceMs, Request request,
                        String bodyBytes, List<String> tiers) {
            this(name, path, expectStatus, expectBody, serviceMs, request, bodyBytes, tiers, null);
        }

        public boolean statusOk(int status) {
            return expectStatus < 10 ? status / 100 == expectStatus : status == expectStatus;
        }

        public String expectedStatus() {
            return expectStatus < 10 ? expectStatus + "xx" : Integer.toString(expectStatus);
        }

        public String pathFor(Params params) {
            return fill(path, params);
        }

        /** The endpoint's fixed service time in ms (e.g. the sleep), if it has one. */
        public Double serviceMsFor(Params params) {
            if (serviceMs == null) return null;
            return Double.parseDouble(fill(serviceMs, params));
        }

        /** This workload for one row: a body of bodyBytes bytes, and the row's params in expectBody (when it names any). */
        public Workload withParams(Params params) {
            Request r = bodyBytes == null ? request : Request.filler(request.method(), Integer.parseInt(fill(bodyBytes, params)));
            String expect = expectBody;
            for (var e : params.asMap().entrySet()) expect = expect.replace("{" + e.getKey() + "}", e.getValue());
            return new Workload(name, path, expectStatus, expect, serviceMs, r, null, tiers, mix);
        }
    }

    public static String fill(String template, Params params) {
        String out = template;
        for (var e : params.asMap().entrySet()) out = out.replace("{" + e.getKey() + "}", e.getValue());
        if (out.matches(".*\\{[a-zA-Z]+}.*")) throw new IllegalStateException("unfilled placeholder in " + out);
        return out;
    }

    public Workload workload(String name) throws UsageError {
        Workload w = workloads.get(name);
        if (w == null) {
            throw new UsageError("stack " + this.name + " has no workload '" + name + "' (it has " + String.join(", ", workloads.keySet()) + ")");
        }
        return w;
    }

    /**
     * One setting of stack.json's "settings".
     *
     * @param dflt      the value when no experiment sets it (null for mode)
     * @param numeric   whether runtime-info echoes it as a number (its default is a JSON number)
     * @param values    the values it may take (empty: any)
     * @param envValues what the env variable is given for a value, when it differs (VT_ENABLED: virtual -> true)
     * @param info      runtime-info fields that echo it, each with the value expected per setting value ("*" for any
     *                  other; a null map: the value itself)
     * @param when      conditions (on mode, workload or other settings) under which it is echoed; otherwise the
     *                  fields must be null (a platform pool's size on virtual threads)
     * @param unchecked whether the fields go unchecked, instead of null, when a condition fails ("otherwise":
     *                  "unchecked": a value the SUT cannot observe there, e.g. the protocol of a call never made)
     * @param shipped    the server's own default where the lab's differs ("shipped"), else null: what a service gets
     *                   that flips to virtual threads and tunes nothing (the as-shipped variant)
     * @param argValues  program arguments per value
     * @param envByValue env variables per value (several, unlike env + envValues)
     */
    public record Setting(String name, String env, String dflt, boolean numeric, List<String> values,
                          Map<String, String> envValues, Map<String, Map<String, Object>> info, Map<String, String> when,
                          boolean unchecked, String shipped, Map<String, List<String>> argValues, Map<String, Env> envByValue) {
        /**
         * A setting given as program arguments and/or several env variables per value, not as one variable: how a
         * service from the command line is switched (--spring.threads.virtual.enabled=true, --virtual-env K=V).
         */
        public static Setting byValue(String name, List<String> values, String dflt, Map<String, List<String>> args,
                                      Map<String, Env> env) {
            return new Setting(name, null, dflt, false, values, Map.of(), Map.of(), Map.of(), false, null, args, env);
        }

        Object expected(Map<String, Object> valueMap, String value) throws UsageError {
            if (valueMap != null && valueMap.containsKey(value)) return valueMap.get(value);
            if (valueMap != null && valueMap.containsKey("*")) return valueMap.get("*");
            if (!numeric) return value;
            try {
                return Integer.valueOf(value.trim());
            } catch (NumberFormatException e) {
                throw new UsageError("setting " + name + " takes a whole number, not '" + value + "'");
            }
        }
    }

    /**
     * A row's SUT configuration: env to start it with, runtime-info it must echo, tiers it needs.
     *
     * @param values every setting's value, defaults filled (experiments read e.g. maxThreads for their bound)
     * @param args   program arguments the values give (after the jar or the command)
     */
    public record Config(Env env, Map<String, Object> expectInfo, List<String> tiers, Settings values,
                         List<String> args) {
        public int intValue(String setting) {
            return values.intValue(setting);
        }
    }

    /**
     * The configuration of one row: the experiment's axis values over every declared setting's default. An axis
     * naming no setting of this stack is refused, so a typo cannot leave a default silently in place.
     */
    public Config configure(String mode, String workload, Settings axisValues, int jdkMajor) throws UsageError {
        for (String k : axisValues.names()) {
            if (k.equals(MODE) || !settings.containsKey(k)) {
                throw new UsageError("stack " + name + " has no setting '" + k + "' (it has " + String.join(", ", settings.keySet()) + ")");
            }
        }
        Workload w = workload(workload);
        Settings values = values(mode, axisValues);
        Env env = Env.NONE;
        List<String> args = new ArrayList<>();
        Map<String, Object> expect = new LinkedHashMap<>(this.expect);
        for (Setting s : settings.values()) {
            String v = values.get(s.name());
            if (v == null) continue;
            if (s.env() != null) env = env.with(s.env(), s.envValues().getOrDefault(v, v));
            args.addAll(s.argValues().getOrDefault(v, List.of()));
            env = env.merge(s.envByValue().getOrDefault(v, Env.NONE));
            boolean echoed = s.when().entrySet().stream().allMatch(c -> c.getValue().equals(
                    c.getKey().equals("workload") ? workload : values.get(c.getKey())));
            if (!echoed && s.unchecked()) continue;
            for (var f : s.info().entrySet()) expect.put(f.getKey(), echoed ? s.expected(f.getValue(), v) : null);
        }
        if (reportsRuntimeInfo()) expect.put("jdk_major", jdkMajor);
        LinkedHashSet<String> t = new LinkedHashSet<>(tiers);
        t.addAll(w.tiers());
        return new Config(env, expect, List.copyOf(t), values, List.copyOf(args));
    }

    /** Every setting's value for a row: the mode, the axis values, each other setting's default; a value the setting does not take refused. */
    private Settings values(String mode, Settings axisValues) throws UsageError {
        Settings values = Settings.NONE;
        for (Setting s : settings.values()) {
            String v = s.name().equals(MODE) ? mode : axisValues.getOrDefault(s.name(), s.dflt());
            if (v == null) continue;
            if (!s.values().isEmpty() && !s.values().contains(v)) {
                throw new UsageError("stack " + name + ": " + s.name() + " takes " + String.join(", ", s.values()) + ", not '" + v + "'");
            }
            values = values.with(s.name(), v);
        }
        return values;
    }

    /** A setting's declared default, for an experiment that needs it where no axis sets it (one place: stack.json). */
    public String dflt(String setting) throws UsageError {
        Setting s = settings.get(setting);
        if (s == null || s.dflt() == null) throw new UsageError("stack " + name + " declares no default for " + setting);
        return s.dflt();
    }

    /** The settings whose server default differs from the lab's, at the server's value (stack.json "shipped"). */
    public Settings shipped() {
        Settings out = Settings.NONE;
        for (Setting s : settings.values()) if (s.shipped() != null) out = out.with(s.name(), s.shipped());
        return out;
    }

    public int intDefault(String setting) throws UsageError {
        return Integer.parseInt(dflt(setting).trim());
    }

    /** This stack run from another jar of its own (a build with other library versions, see vtlab.tier.StackVariants). */
    public Stack withJar(Path other) {
        return new Stack(name, description, dir, other, runtimeInfoPath, settings, tiers, expect, workloads, data, launch, modes, roles);
    }

    public boolean built() {
        return launch.command() != null || Files.isRegularFile(jar);
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    public static Path stacksDir() {
        return Path.of(System.getProperty("vtlab.home", ".")).resolve("stacks");
    }

    public static Stack load(String name) throws UsageError {
        Stack defined = DEFINED.get(name);
        if (defined != null) return defined;
        Path dir = stacksDir().resolve(name);
        Path file = dir.resolve("stack.json");
        if (!Files.isRegularFile(file)) throw new UsageError("no stack '" + name + "' (no " + file + ")");
        try {
            return parse(dir, JSON.readTree(file.toFile()));
        } catch (IOException | RuntimeException e) {
            throw new UsageError("cannot read " + file + ": " + e.getMessage());
        }
    }

    static Stack parse(Path dir, JsonNode n) {
        Map<String, Setting> settings = new LinkedHashMap<>();
        n.path("settings").properties().forEach(e -> settings.put(e.getKey(), setting(e.getKey(), e.getValue())));
        Map<String, Object> expect = new LinkedHashMap<>();
        n.path("expectInfo").properties().forEach(e -> expect.put(e.getKey(), scalar(e.getValue())));
        Map<String, Workload> workloads = new LinkedHashMap<>();
        n.path("workloads").properties().forEach(e -> {
            JsonNode w = e.getValue();
            workloads.put(e.getKey(), new Workload(e.getKey(), w.path("path").asText(), w.path("expectStatus").asInt(200),
                    w.path("expectBody").asText(""), w.hasNonNull("serviceMs") ? w.get("serviceMs").asText() : null,
                    request(w),
                    w.hasNonNull("bodyBytes") ? w.get("bodyBytes").asText() : null, strings(w.path("tiers"))));
        });
        Map<String, ThreadMode> modes = n.has("modes") ? ThreadMode.parse(n.get("modes")) : ThreadMode.undeclared(settings);
        Setting mode = settings.get(MODE);
        if (n.has("modes") && (mode == null || !mode.values().equals(ThreadMode.names(modes)))) {
            throw new IllegalArgumentException("\"modes\" must declare each value of the mode setting, in its order: "
                    + (mode == null ? "there is no mode setting" : mode.values() + " vs " + ThreadMode.names(modes)));
        }
        for (ThreadMode m : modes.values()) {
            if (m.size() != null && !settings.containsKey(m.size())) {
                throw new IllegalArgumentException("mode " + m.name() + " is sized by " + m.size() + ", which is no setting");
            }
        }
        Map<String, String> roles = new LinkedHashMap<>();
        n.path("roles").properties().forEach(e -> roles.put(e.getKey(), e.getValue().asText()));
        for (var r : roles.entrySet()) {
            if (!settings.containsKey(r.getValue())) throw new IllegalArgumentException("role " + r.getKey() + " names " + r.getValue() + ", which is no setting");
        }
        return new Stack(n.path("name").asText(dir.getFileName().toString()), n.path("description").asText(""), dir,
                dir.resolve(n.path("launch").path("jar").asText()), n.path("runtimeInfo").asText("/runtime-info"), settings,
                strings(n.path("tiers")), expect, workloads, StackData.parse(n.path("name").asText(dir.getFileName().toString()), dir, n.path("data")),
                OWN.withAotCache(n.path("launch").path("aotCache").asBoolean(false)), java.util.Collections.unmodifiableMap(modes), Map.copyOf(roles));
    }

    /** A workload's request: its method, and its "body" text (UTF-8) as application/octet-stream when it has one. */
    private static Request request(JsonNode w) {
        String method = w.path("method").asText("GET");
        if (!w.hasNonNull("body")) return Request.of(method);
        return new Request(method, List.of(new Request.Header(Request.CONTENT_TYPE, Request.OCTET_STREAM)),
                Request.Body.of(w.get("body").asText().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    /** "info" is a field name (echoes the value, mapped by "infoValues" if given) or an object field -> value map. */
    private static Setting setting(String name, JsonNode s) {
        Map<String, Map<String, Object>> info = new LinkedHashMap<>();
        JsonNode i = s.path("info");
        if (i.isTextual()) info.put(i.asText(), s.has("infoValues") ? valueMap(s.get("infoValues")) : null);
        else i.properties().forEach(e -> info.put(e.getKey(), e.getValue().isObject() ? valueMap(e.getValue()) : null));
        Map<String, String> envValues = new LinkedHashMap<>(), when = new LinkedHashMap<>();
        s.path("envValues").properties().forEach(e -> envValues.put(e.getKey(), e.getValue().asText()));
        s.path("when").properties().forEach(e -> when.put(e.getKey(), e.getValue().asText()));
        JsonNode d = s.get("default");
        return new Setting(name, s.hasNonNull("env") ? s.get("env").asText() : null, d == null || d.isNull() ? null : d.asText(),
                d != null && d.isNumber(), strings(s.path("values")), envValues, info, when, s.path("otherwise").asText("null").equals("unchecked"),
                s.hasNonNull("shipped") ? s.get("shipped").asText() : null, Map.of(), Map.of());
    }

    private static Map<String, Object> valueMap(JsonNode n) {
        Map<String, Object> m = new HashMap<>(); // HashMap: values may be null
        n.properties().forEach(e -> m.put(e.getKey(), scalar(e.getValue())));
        return m;
    }

    private static Object scalar(JsonNode v) {
        return v.isNull() ? null : v.isInt() ? (Object) v.asInt() : v.asText();
    }

    private static List<String> strings(JsonNode a) {
        List<String> out = new ArrayList<>();
        a.forEach(x -> out.add(x.asText()));
        return List.copyOf(out);
    }

    public static Map<String, Stack> all() {
        Map<String, Stack> out = new LinkedHashMap<>();
        try (Stream<Path> s = Files.list(stacksDir())) {
            for (Path d : s.sorted().toList()) {
                if (Files.isRegularFile(d.resolve("stack.json"))) {
                    try {
                        out.put(d.getFileName().toString(), load(d.getFileName().toString()));
                    } catch (UsageError ignored) {
                        // listed by doctor as unreadable
                    }
                }
            }
        } catch (IOException ignored) {
            // no stacks folder: nothing to list
        }
        return out;
    }
}
