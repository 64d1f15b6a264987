package vtlab.tier;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import vtlab.proc.Children;
import vtlab.proc.CoreMap;
import vtlab.proc.Env;
import vtlab.proc.LogTail;
import vtlab.tier.tool.Tool;
import vtlab.tier.tool.Tools;

/**
 * The fault proxy: Toxiproxy (Shopify's TCP proxy, driven over its HTTP API) on the tiers' CPUs, in front of every
 * dependency started before it (the row's tiers list it last). The SUT is given the proxy's addresses instead of the
 * dependencies' own, so a fault on the proxy is a fault the SUT sees: latency (a latency toxic on the answers) or
 * down (the proxy disabled: connections refused and open ones cut). With no fault the proxy only forwards. The fault
 * kinds (vtlab.tier.fault) drive it through {@link #toxic} and {@link #disable}; it knows no fault.
 */
public final class ToxiproxyTier implements RunTier {
    public static final String NAME = "toxiproxy";
    /** It forwards the stub's and the database's traffic: it runs beside them, on the stub's CPUs. */
    public static final Tiers.Entry TIER = Tiers.Entry.of(NAME, ToxiproxyTier::new).onCpusOf(CoreMap.STUB);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(20);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private Process process;
    private URI api;
    private Path log;
    /** Upstream tier name -> its proxy. */
    private final Map<String, Proxied> proxies = new LinkedHashMap<>();

    /** One dependency behind the proxy: its env, with its own address replaced by the proxy's. */
    record Proxied(String name, String upstream, String listen, Env env) {}

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<Tool> tools() {
        return List.of(Tools.TOXIPROXY);
    }

    @Override
    public void start(Context ctx) throws Exception {
        Path bin = Tools.TOXIPROXY.get();
        int port = vtlab.proc.LoopbackPort.free();
        api = URI.create("http://127.0.0.1:" + port);
        Files.createDirectories(ctx.logDir());
        log = ctx.logDir().resolve("toxiproxy.log");
        List<String> cmd = List.of("taskset", "-c", ctx.cpus(), bin.toString(), "-host", "127.0.0.1", "-port", Integer.toString(port));
        Files.writeString(log, "# " + String.join(" ", cmd) + "\n");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().put("LOG_LEVEL", "warn"); // info logs every connection the SUT opens
        process = Children.track(pb.start());
        awaitReady();
        for (Map.Entry<String, RunTier> e : ctx.running().entrySet()) {
            for (String upstream : e.getValue().endpoints()) front(e.getKey(), upstream, e.getValue().sutEnv());
        }
    }

    private void awaitReady() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) throw new IOException("toxiproxy-server exited with " + process.exitValue() + ": " + LogTail.of(log, 5));
            try {
                if (send("GET", "/version", null).statusCode() == 200) return;
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(100);
        }
        throw new IOException("toxiproxy-server not ready after " + READY_TIMEOUT.toSeconds() + " s: " + LogTail.of(log, 5));
    }

    /** A proxy on a free port of 127.0.0.1 in front of upstream (host:port) of tier name. */
    void front(String name, String upstream, Env upstreamEnv) throws IOException, InterruptedException {
        ObjectNode body = JSON.createObjectNode().put("name", name).put("listen", "127.0.0.1:0").put("upstream", upstream).put("enabled", true);
        JsonNode created = call("POST", "/proxies", body, 201);
        String listen = created.path("listen").asText();
        Env env = Env.NONE;
        for (var e : upstreamEnv.asMap().entrySet()) env = env.with(e.getKey(), e.getValue().replace(upstream, listen));
        proxies.put(name, new Proxied(name, upstream, listen, env));
    }

    /** The dependencies behind the proxy: tier name -> proxy address. */
    public Map<String, String> listens() {
        Map<String, String> out = new LinkedHashMap<>();
        proxies.forEach((k, p) -> out.put(k, p.listen()));
        return out;
    }

    /** Every proxied dependency's env, pointed at the proxy (the runner applies it after the dependencies' own). */
    @Override
    public Env sutEnv() {
        Env env = Env.NONE;
        for (Proxied p : proxies.values()) env = env.merge(p.env());
        return env;
    }

    /** Whether it stands in front of the dependency that is tier name. */
    public boolean fronts(String tier) {
        return proxies.containsKey(tier);
    }

    /**
     * A toxic of this type (latency, bandwidth, …: Toxiproxy's) on the answers of the dependency that is tier name, with
     * these attributes, named vtlab-TYPE; closing what it returns removes it.
     */
    public AutoCloseable toxic(String tier, String type, Map<String, Object> attributes) throws IOException, InterruptedException {
        String proxy = "/proxies/" + tier, name = "vtlab-" + type;
        ObjectNode toxic = JSON.createObjectNode().put("name", name).put("type", type).put("stream", "downstream").put("toxicity", 1.0);
        toxic.set("attributes", JSON.valueToTree(attributes));
        call("POST", proxy + "/toxics", toxic, 200);
        return () -> call("DELETE", proxy + "/toxics/" + name, null, 204);
    }

    /** The dependency that is tier name unreachable through the proxy (connections refused, open ones cut); closing what it returns enables it again. */
    public AutoCloseable disable(String tier) throws IOException, InterruptedException {
        String proxy = "/proxies/" + tier;
        call("POST", proxy, JSON.createObjectNode().put("enabled", false), 200);
        return () -> call("POST", proxy, JSON.createObjectNode().put("enabled", true), 200);
    }

    /** The proxy's view of one dependency (enabled, toxics), for checks. */
    public JsonNode proxy(String tier) throws IOException, InterruptedException {
        return call("GET", "/proxies/" + tier, null, 200);
    }

    private JsonNode call(String method, String path, JsonNode body, int expect) throws IOException, InterruptedException {
        HttpResponse<String> r = send(method, path, body);
        if (r.statusCode() != expect) throw new IOException("toxiproxy " + method + " " + path + " answered " + r.statusCode() + ": " + r.body());
        return r.body().isBlank() ? JSON.createObjectNode() : JSON.readTree(r.body());
    }

    private HttpResponse<String> send(String method, String path, JsonNode body) throws IOException, InterruptedException {
        HttpRequest.BodyPublisher pub = body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body.toString());
        return http.send(HttpRequest.newBuilder(api.resolve(path)).timeout(Duration.ofSeconds(5)).method(method, pub).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Override
    public ProcessHandle process() {
        return process == null ? null : process.toHandle();
    }

    @Override
    public void close() {
        if (process != null) Children.stop(process.toHandle(), 5_000);
    }


    /** What the proxy fronts, for messages. */
    @Override
    public String toString() {
        List<String> parts = new ArrayList<>();
        proxies.values().forEach(p -> parts.add(p.name() + " " + p.listen() + " -> " + p.upstream()));
        return "toxiproxy " + api + " (" + String.join(", ", parts) + ")";
    }
}
