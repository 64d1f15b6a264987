package vtlab.probe;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import vtlab.data.Column;
import vtlab.stack.Stack;

/**
 * The requests the SUT itself received per path during the hold: its runtime-info's requests_by_path (the servlet
 * stack counts every request by path, query left out) read when the hold begins and when it ends, the difference
 * written as "path=count" pairs. What a scenario's mix came to, counted where it arrived rather than where it was
 * sent. A stack that does not count reports nothing (the column stays empty). A row whose workload is a scenario's
 * mix also gets the counts per request name (sut_requests_by_name).
 */
public final class PathsProbe implements Probe {
    public static final String NAME = "paths";
    public static final Column BY_PATH = Column.text("sut_requests_by_path",
            "requests the SUT received per path in the hold (runtime-info's requests_by_path), path=count;path=count");
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private Map<String, Long> before;
    private Map<String, Long> after;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "requests the SUT received per path in the hold, from its runtime-info (sut_requests_by_path; the servlet stack)";
    }

    public static final Column BY_REQUEST = Column.text("sut_requests_by_name",
            "a scenario's mix at the SUT: requests it received per request name in the hold (from sut_requests_by_path), name=count;name=count");

    @Override
    public List<Column> columns() {
        return List.of(BY_PATH, BY_REQUEST);
    }

    /** Over HTTP: wherever the SUT runs. */
    @Override
    public boolean remote() {
        return true;
    }

    @Override
    public void start(ProbeContext ctx) throws Exception {
        before = read(ctx);
    }

    @Override
    public void stop(ProbeContext ctx) throws Exception {
        after = read(ctx);
    }

    @Override
    public void finish(ProbeContext ctx, Measurements out) {
        if (before == null || after == null) return;
        List<String> pairs = new ArrayList<>();
        after.forEach((path, n) -> {
            long d = n - before.getOrDefault(path, 0L);
            if (d > 0) pairs.add(path + "=" + d);
        });
        out.put(BY_PATH, String.join(";", pairs));
        Map<String, Long> diff = parse(String.join(";", pairs));
        Stack.Workload w = workload(ctx);
        if (w != null && w.mix() != null) {
            List<String> named = new ArrayList<>();
            vtlab.stack.Mix.countsByName(w.mix().pathsByName(), diff).forEach((name, n) -> named.add(name + "=" + n));
            out.put(BY_REQUEST, String.join(";", named));
        }
    }

    /** The row's workload (a scenario's carries its mix), or null when its stack does not have it. */
    private static Stack.Workload workload(ProbeContext ctx) {
        try {
            return Stack.load(ctx.row().stack()).workload(ctx.row().workload());
        } catch (vtlab.core.UsageError e) {
            return null;
        }
    }

    /** requests_by_path now, or null when the SUT has no runtime-info or does not count. */
    Map<String, Long> read(ProbeContext ctx) throws Exception {
        JsonNode info = runtimeInfo(http, ctx);
        JsonNode n = info == null ? null : info.path("requests_by_path");
        return n == null || !n.isObject() ? null : counts(n);
    }

    /** The SUT's runtime-info now (over HTTP: wherever it runs), or null when its stack has none. */
    static JsonNode runtimeInfo(HttpClient http, ProbeContext ctx) throws Exception {
        Stack s = Stack.load(ctx.row().stack());
        if (!s.reportsRuntimeInfo()) return null;
        URI u = ctx.sutBase().resolve(s.runtimeInfoPath());
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(u).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(r.body());
    }

    static Map<String, Long> counts(JsonNode n) {
        Map<String, Long> out = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
            var e = it.next();
            out.put(e.getKey(), e.getValue().asLong());
        }
        return out;
    }

    /** A cell of {@link #BY_PATH} back into counts by path (empty for an empty cell). */
    public static Map<String, Long> parse(String cell) {
        Map<String, Long> out = new TreeMap<>();
        if (cell == null || cell.isBlank()) return out;
        for (String pair : cell.split(";")) {
            int eq = pair.lastIndexOf('=');
            if (eq > 0) out.put(pair.substring(0, eq), Long.parseLong(pair.substring(eq + 1)));
        }
        return out;
    }
}
