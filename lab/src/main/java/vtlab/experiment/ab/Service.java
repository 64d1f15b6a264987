package vtlab.experiment.ab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.Secrets;
import vtlab.core.UsageError;
import vtlab.plan.RunOptions;
import vtlab.proc.Env;
import vtlab.stack.Request;
import vtlab.stack.Stack;
import vtlab.stack.ThreadMode.Threads;
import vtlab.tier.AotCache;
import vtlab.tier.tool.Jdk;

/**
 * The user's service as a stack, built from the command line instead of a stack.json: how it starts (a runnable jar
 * or a command), how each thread mode (and the tuned variant) is switched, its own packages, and the --url scenarios
 * with the answer each must give before load. It has no runtime-info: the runner proves the thread mode from thread
 * dumps under the warm-up's load instead.
 */
public final class Service {
    static final String TUNING = "tuning";
    static final String AS_SHIPPED = "as-shipped", TUNED = "tuned";

    public static final Opt APP = Opt.of("app", null, "the service: a runnable jar (a Spring Boot jar is recognised from its manifest)").inScenario("service");
    public static final Opt CMD = Opt.of("cmd", null, "the service: a command that starts a JVM listening on --port (run by sh, pinned\n"
            + "to the SUT's CPUs; the lab's JVM options reach it in JAVA_TOOL_OPTIONS)").inScenario("service");
    public static final Opt URL = Opt.of("url", null, "a path to load, e.g. /orders/42 (repeatable: each its own scenario)");
    public static final Opt METHOD = Opt.of("method", "GET", "HTTP method of every --url: GET, HEAD, DELETE, OPTIONS,\nPOST, PUT or PATCH");
    public static final Opt HEADER = Opt.of("header", null, "\"Name: value\" sent with every request, the check before\n"
            + "load's too (repeatable; Authorization, Cookie: written as ***)");
    public static final Opt BODY = Opt.of("body", null, "request body of every --url: @FILE, the file's bytes as they\n"
            + "are, or the text itself (UTF-8); needs --header \"Content-Type: ...\";\nnot with GET or HEAD");
    public static final Opt EXPECT_STATUS = Opt.of("expect-status", "2xx", "status every --url must answer before load (2xx or a code)");
    public static final Opt EXPECT_BODY = Opt.of("expect-body", null, "regex the body must match before load");
    public static final Opt ENV = Opt.of("env", null, "K=V for the service's own settings, both modes (repeatable;\n"
            + "e.g. a database URL; a K naming a PASSWORD, SECRET, TOKEN, KEY or\nCREDENTIAL is written as ***)").typed(Opt.Type.ENV).inScenario("service");
    public static final Opt PLATFORM_ARGS = Opt.of("platform-args", null, "program arguments of the platform rows").inScenario("service");
    public static final Opt VIRTUAL_ARGS = Opt.of("virtual-args", null, "program arguments of the virtual rows").inScenario("service");
    public static final Opt PLATFORM_ENV = Opt.of("platform-env", null, "K=V of the platform rows (repeatable)").typed(Opt.Type.ENV).inScenario("service");
    public static final Opt VIRTUAL_ENV = Opt.of("virtual-env", null, "K=V of the virtual rows (repeatable)").typed(Opt.Type.ENV).inScenario("service");
    static final Opt APP_PACKAGE = Opt.of("app-package", null, "the service's own package(s), to trim pinning stacks to\n"
            + "(default: Start-Class's package of a Spring Boot jar)").typed(Opt.Type.REPEATED).inScenario("service");
    static final Opt START_TIMEOUT = Opt.of("start-timeout", "120s", "how long start-up may take until the port opens").inScenario("service");
    static final Opt AOT_CACHE = Opt.flag("aot-cache", "start --app's every fork from a JDK 25 AOT cache (the default for --app on\n"
            + "JDK 25+; said for scripts that still give it)").inScenario("service");
    static final Opt NO_AOT_CACHE = Opt.flag("no-aot-cache", "start --app's forks from the jar as shipped; by default each fork starts\n"
            + "from a JDK 25 AOT cache trained once under the A/B's own requests and\nkept in .vtlab/aot (a Spring Boot jar extracted first): its classes and\n"
            + "the request path's profiles, so forks start and warm up in less time\nand more fit the budget").inScenario("service");
    static final List<Opt> OPTIONS = List.of(APP, CMD, URL, METHOD, HEADER, BODY, EXPECT_STATUS, EXPECT_BODY, ENV, PLATFORM_ARGS, VIRTUAL_ARGS,
            PLATFORM_ENV, VIRTUAL_ENV, APP_PACKAGE, START_TIMEOUT, AOT_CACHE, NO_AOT_CACHE);

    /**
     * @param springBoot  whether the jar's manifest names Spring-Boot-Version: the lab then switches it itself
     * @param startClass  Start-Class of a Spring Boot jar (null otherwise)
     * @param sharedEnv   --env: both modes
     * @param modeArgs    each thread mode's program arguments (the lab's switch on a Spring Boot jar, then the user's)
     */
    record Parsed(Stack stack, boolean springBoot, String startClass, Env sharedEnv, Map<String, List<String>> modeArgs) {
        List<String> modeArgs(String mode) {
            return modeArgs.getOrDefault(mode, List.of());
        }
    }

    private Service() {}

    static Parsed parse(Options o, int port) throws UsageError {
        boolean app = APP.given(o), cmd = CMD.given(o);
        if (app == cmd) throw new UsageError("ab needs the service: --app PATH.jar or --cmd \"...\" (one of them)");
        List<String> urls = URL.every(o);
        if (urls.isEmpty()) throw new UsageError("ab needs at least one --url PATH to load (e.g. --url /api/orders/1)");
        Path jar = null;
        String command = null, startClass = null, version = null;
        if (app) {
            jar = Path.of(APP.string(o)).toAbsolutePath().normalize();
            if (!Files.exists(jar)) throw new UsageError("--app " + APP.string(o) + ": no such file");
            Manifest m = manifest(jar);
            version = m.getMainAttributes().getValue("Spring-Boot-Version");
            startClass = m.getMainAttributes().getValue("Start-Class");
            if (m.getMainAttributes().getValue("Main-Class") == null) throw new UsageError("--app " + jar + " is a jar without Main-Class: not runnable");
        } else {
            command = CMD.string(o).strip();
            if (command.isEmpty()) throw new UsageError("--cmd is empty");
            if (AOT_CACHE.on(o)) throw new UsageError("--aot-cache takes --app: a --cmd starts its JVM itself");
        }
        boolean boot = version != null;
        boolean aot = app && aotCache(o);
        List<String> platformArgs = words(o, PLATFORM_ARGS), virtualArgs = words(o, VIRTUAL_ARGS);
        Env platformEnv = env(o, PLATFORM_ENV), virtualEnv = env(o, VIRTUAL_ENV), shared = env(o, ENV);
        if (!boot && virtualArgs.isEmpty() && virtualEnv.isEmpty() && platformArgs.isEmpty() && platformEnv.isEmpty()) {
            throw new UsageError((app ? "--app " + jar.getFileName() + " is not a Spring Boot jar" : "--cmd")
                    + ": say how to switch it with --virtual-args/--platform-args or --virtual-env/--platform-env");
        }
        Map<String, List<String>> modeArgs = modeArgs(boot, port, platformArgs, virtualArgs);
        Map<String, List<String>> tuningArgs = new LinkedHashMap<>();
        // Tomcat keeps 200 idle processors by default; a virtual thread per request above that builds a new one (~50 KB):
        // measured in this lab at 1,000 connections, ~40% of the throughput (docs/results.md, "Two defaults")
        if (boot) tuningArgs.put(TUNED, List.of("--server.tomcat.processor-cache=-1"));
        List<String> packages = APP_PACKAGE.every(o).stream().map(p -> p.endsWith(".") ? p : p + ".").toList();
        if (packages.isEmpty() && startClass != null && startClass.contains(".")) {
            packages = List.of(startClass.substring(0, startClass.lastIndexOf('.') + 1));
        }
        Duration timeout = START_TIMEOUT.duration(o, false);
        Map<String, Stack.Setting> settings = new LinkedHashMap<>();
        settings.put(Stack.MODE, Stack.Setting.byValue(Stack.MODE, List.of(Threads.PLATFORM.word, Threads.VIRTUAL.word), null, modeArgs,
                Map.of(Threads.PLATFORM.word, platformEnv, Threads.VIRTUAL.word, virtualEnv)));
        settings.put(TUNING, Stack.Setting.byValue(TUNING, List.of(AS_SHIPPED, TUNED), AS_SHIPPED, tuningArgs, Map.of()));
        Map<String, Stack.Workload> workloads = workloads(o, urls);
        String name = app ? jar.getFileName().toString().replaceFirst("\\.jar$", "") : "cmd";
        Path dir = app ? jar.getParent() : Path.of("").toAbsolutePath();
        Stack stack = new Stack(name, (boot ? "Spring Boot " + version + " jar " : app ? "jar " : "command ") + (app ? jar : command),
                dir, jar, null, settings, List.of(), Map.of(), workloads, java.util.Optional.empty(),
                new Stack.Launch(command, packages, timeout, aot));
        return new Parsed(stack, boot, startClass, shared, Map.copyOf(modeArgs));
    }

    /** Each thread mode's program arguments: on a Spring Boot jar the lab's switch first (and its port), then the user's. */
    private static Map<String, List<String>> modeArgs(boolean boot, int port, List<String> platformArgs, List<String> virtualArgs) {
        Map<String, List<String>> modeArgs = new LinkedHashMap<>();
        for (String mode : List.of(Threads.PLATFORM.word, Threads.VIRTUAL.word)) {
            List<String> a = new ArrayList<>();
            if (boot) {
                // only ever on the loopback, on the lab's port; the property the issue's users flip
                a.addAll(List.of("--server.port=" + port, "--server.address=127.0.0.1",
                        "--spring.threads.virtual.enabled=" + mode.equals(Threads.VIRTUAL.word),
                        "--spring.datasource.hikari.register-mbeans=true"));
            }
            a.addAll(mode.equals(Threads.VIRTUAL.word) ? virtualArgs : platformArgs);
            modeArgs.put(mode, List.copyOf(a));
        }
        return modeArgs;
    }

    /** A workload per --url, each sent as --method/--header/--body and checked against --expect-status and --expect-body. */
    private static Map<String, Stack.Workload> workloads(Options o, List<String> urls) throws UsageError {
        Map<String, Stack.Workload> workloads = new LinkedHashMap<>();
        Request request = request(o);
        int status = expectStatus(EXPECT_STATUS.string(o));
        String body = EXPECT_BODY.given(o) ? EXPECT_BODY.string(o) : "";
        try {
            java.util.regex.Pattern.compile(body);
        } catch (java.util.regex.PatternSyntaxException e) {
            throw new UsageError("--expect-body is not a regex: " + e.getDescription());
        }
        for (String u : urls) {
            if (!u.startsWith("/")) throw new UsageError("--url takes a path on the service, e.g. /api/orders/1, not '" + u + "'");
            if (u.matches(".*\\{[a-zA-Z]+}.*")) throw new UsageError("--url " + u + ": braces are read as placeholders");
            workloads.put(u, new Stack.Workload(u, u, status, body, null, request, null, List.of()));
        }
        return workloads;
    }

    /**
     * Whether --app's forks start from an AOT cache: by default when every --jdk is 25 or later. With an older JDK
     * asked, its rows would start from the jar and be set against rows that started warm, so the default is off there
     * and --aot-cache is refused.
     */
    private static boolean aotCache(Options o) throws UsageError {
        if (NO_AOT_CACHE.on(o)) {
            if (AOT_CACHE.on(o)) throw new UsageError("--aot-cache and --no-aot-cache: give one of them");
            return false;
        }
        for (String spec : RunOptions.JDK.every(o)) {
            if (Jdk.resolve(spec).major() >= AotCache.MIN_JDK) continue;
            if (!AOT_CACHE.on(o)) return false;
            throw new UsageError("--aot-cache with --jdk " + spec + ": a JDK before " + AotCache.MIN_JDK
                    + " starts from the jar, and its rows would be set against rows that started warm from the cache");
        }
        return true;
    }

    /** Headers the lab or the generators set themselves: given with --header they would be sent twice or wrong. */
    static final java.util.Set<String> OWN_HEADERS = java.util.Set.of("host", "content-length", "transfer-encoding", "connection",
            "keep-alive", "expect", "upgrade", "te");

    /**
     * --method, --header and --body as the one request every generator and the check before load send. A body needs
     * its Content-Type said (the lab does not guess one: a JSON endpoint would answer 415 to a default), and GET and
     * HEAD take none (servers and proxies may drop it).
     */
    static Request request(Options o) throws UsageError {
        String method = METHOD.string(o).toUpperCase(java.util.Locale.ROOT);
        if (!method.matches("GET|HEAD|DELETE|OPTIONS|POST|PUT|PATCH")) {
            throw new UsageError("--method takes GET, HEAD, DELETE, OPTIONS, POST, PUT or PATCH, not '" + method + "'");
        }
        List<Request.Header> headers = new ArrayList<>();
        for (String h : HEADER.every(o)) {
            int colon = h.indexOf(':');
            if (colon <= 0) throw new UsageError("--header takes \"Name: value\", not '" + Secrets.header(h) + "'");
            String name = h.substring(0, colon).strip(), value = h.substring(colon + 1).strip();
            // hey takes [A-Za-z0-9_-] names and a non-empty value only; a line break would end the header early
            if (!name.matches("[A-Za-z0-9_-]+")) throw new UsageError("--header " + name + ": a header name has letters, digits, '-' and '_' only");
            if (value.isEmpty()) throw new UsageError("--header " + name + " has no value");
            if (value.chars().anyMatch(c -> c < 0x20 && c != '\t' || c == 0x7f)) throw new UsageError("--header " + name + ": its value has a control character");
            if (OWN_HEADERS.contains(name.toLowerCase(java.util.Locale.ROOT))) {
                throw new UsageError("--header " + name + ": the lab and the generators set it themselves (the service listens on 127.0.0.1, the body's length is its own)");
            }
            if (headers.stream().anyMatch(x -> x.name().equalsIgnoreCase(name))) {
                throw new UsageError("--header " + name + " is given twice: wrk and k6 send one value a name (join the values with a comma)");
            }
            headers.add(new Request.Header(name, value));
        }
        Request.Body body = null;
        if (BODY.given(o)) {
            String b = BODY.string(o);
            if (b.startsWith("@")) {
                Path f = Path.of(b.substring(1));
                if (!Files.isRegularFile(f) || !Files.isReadable(f)) throw new UsageError("--body " + b + ": no such readable file");
                try {
                    body = Request.Body.ofFile(f);
                } catch (IOException e) {
                    throw new UsageError("--body " + b + ": " + e.getMessage());
                }
            } else {
                body = Request.Body.of(b.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
            if (method.equals("GET") || method.equals("HEAD")) {
                throw new UsageError("--body with --method " + method + ": a " + method + " request has no body (use POST, PUT or PATCH)");
            }
            if (headers.stream().noneMatch(x -> x.name().equalsIgnoreCase(Request.CONTENT_TYPE))) {
                throw new UsageError("--body needs its type: add --header \"Content-Type: ...\" (e.g. application/json, or application/octet-stream for bytes)");
            }
        }
        return new Request(method, headers, body);
    }

    /** The jar's manifest; a file that is not a jar is refused. */
    static Manifest manifest(Path jar) throws UsageError {
        try (JarFile j = new JarFile(jar.toFile())) {
            Manifest m = j.getManifest();
            if (m == null) throw new UsageError("--app " + jar + " has no manifest: not a runnable jar");
            return m;
        } catch (IOException e) {
            throw new UsageError("--app " + jar + " is not a jar (" + e.getMessage() + ")");
        }
    }

    /** 2xx (the default) is the class 2 (see Stack.Workload#statusOk), else one code. */
    static int expectStatus(String s) throws UsageError {
        if (s.equalsIgnoreCase("2xx")) return 2;
        try {
            int c = Integer.parseInt(s.trim());
            if (c >= 100 && c <= 599) return c;
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new UsageError("--expect-status takes 2xx or a status code from 100 to 599, not '" + s + "'");
    }

    private static List<String> words(Options o, Opt opt) {
        List<String> out = new ArrayList<>();
        for (String v : opt.every(o)) if (!v.isBlank()) out.addAll(List.of(v.trim().split("\\s+")));
        return out;
    }

    private static Env env(Options o, Opt opt) throws UsageError {
        Env out = Env.NONE;
        for (String kv : opt.every(o)) {
            int eq = kv.indexOf('=');
            if (eq <= 0) throw new UsageError("--" + opt.name() + " takes K=V, not '" + kv + "'");
            out = out.with(kv.substring(0, eq), kv.substring(eq + 1));
        }
        return out;
    }
}
