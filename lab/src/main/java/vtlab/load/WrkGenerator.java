package vtlab.load;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import vtlab.tier.OsPackages;
import vtlab.core.UsageError;

/**
 * wrk (C, epoll): the default generator; on a 2-core machine it outruns hey and k6 several times, so it is not the
 * bottleneck of a hello-world load. Percentiles and error counts come from wrk's own histogram, emitted as JSON by
 * its Lua done() hook.
 */
public final class WrkGenerator implements Generator {
    static final String BEGIN = "VTLAB_JSON_BEGIN", END = "VTLAB_JSON_END";
    private static final ObjectMapper JSON = new ObjectMapper();
    private Path wrk;

    @Override
    public String name() {
        return "wrk";
    }

    @Override
    public String description() {
        return "wrk (C, epoll), closed model: each connection sends its next request when the answer arrives";
    }

    @Override
    public void ensureAvailable() throws UsageError {
        wrk = OsPackages.which("wrk").orElse(null);
        if (wrk == null && OsPackages.aptInstall("wrk")) wrk = OsPackages.which("wrk").orElse(null);
        if (wrk == null) {
            throw new UsageError("wrk not found and not installable here: install it (apt-get install wrk, dnf install wrk, brew install wrk)");
        }
    }

    @Override
    public String version() {
        if (wrk == null) return "wrk (not looked up: the run has no load rows)";
        try {
            Process p = new ProcessBuilder(wrk.toString(), "-v").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor();
            return out.lines().findFirst().orElse("wrk (unknown version)").replaceAll("\\s+Copyright.*", "").trim();
        } catch (IOException e) {
            return "wrk (version unknown: " + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "wrk";
        }
    }

    /** The Lua script: request method/body, and a done() hook that prints the histogram as JSON. */
    static String script(String method, String body) {
        StringBuilder lua = new StringBuilder();
        lua.append("wrk.method = \"").append(method).append("\"\n");
        if (body != null) {
            lua.append("wrk.body = string.rep(\"x\", ").append(body.length()).append(")\n");
            lua.append("wrk.headers[\"Content-Type\"] = \"application/octet-stream\"\n");
        }
        lua.append("""
                done = function(summary, latency, requests)
                  local e = summary.errors
                  io.write("%s\\n")
                  io.write(string.format('{"requests":%%d,"duration_us":%%d,"bytes":%%d,', summary.requests, summary.duration, summary.bytes))
                  io.write(string.format('"errors":{"connect":%%d,"read":%%d,"write":%%d,"status":%%d,"timeout":%%d},', e.connect, e.read, e.write, e.status, e.timeout))
                  io.write(string.format('"latency_us":{"min":%%d,"max":%%d,"mean":%%.3f,"stdev":%%.3f,', latency.min, latency.max, latency.mean, latency.stdev))
                  io.write(string.format('"p50":%%d,"p90":%%d,"p95":%%d,"p99":%%d,"p999":%%d}}\\n', latency:percentile(50), latency:percentile(90), latency:percentile(95), latency:percentile(99), latency:percentile(99.9)))
                  io.write("%s\\n")
                end
                """.formatted(BEGIN, END));
        return lua.toString();
    }

    @Override
    public RunningLoad start(LoadSpec s) throws IOException {
        Files.createDirectories(s.rawDir());
        Path lua = s.rawDir().resolve(s.stem() + ".wrk.lua");
        Files.writeString(lua, script(s.method(), s.body()));
        List<String> cmd = new ArrayList<>(List.of("taskset", "-c", s.cpus(), wrk.toString(),
                "-t", Integer.toString(Math.max(1, Math.min(s.threads(), s.connections()))),
                "-c", Integer.toString(s.connections()),
                "-d", Math.max(1, s.duration().toSeconds()) + "s",
                "--timeout", Math.max(1, s.timeout().toSeconds()) + "s",
                "--latency", "-s", lua.toString(), s.url().toString()));
        return new ToolRun("wrk", cmd, s.rawDir(), s.stem(), WrkGenerator::parse);
    }

    /** Parses the JSON block our done() hook printed. */
    public static LoadResult parse(String text, Path raw) throws LoadException {
        int a = text.indexOf(BEGIN), b = text.indexOf(END);
        if (a < 0 || b < a) throw new LoadException("wrk printed no result block: " + lastLines(text, 3));
        JsonNode n;
        try {
            n = JSON.readTree(text.substring(a + BEGIN.length(), b));
        } catch (IOException e) {
            throw new LoadException("wrk result block is not JSON: " + e.getMessage());
        }
        JsonNode e = n.path("errors"), l = n.path("latency_us");
        long requests = n.path("requests").asLong();
        return new LoadResult(requests, n.path("duration_us").asLong() / 1e6,
                l.path("mean").asDouble() / 1000, l.path("p50").asDouble() / 1000, l.path("p90").asDouble() / 1000,
                l.path("p95").asDouble() / 1000, l.path("p99").asDouble() / 1000, l.path("p999").asDouble() / 1000,
                l.path("max").asDouble() / 1000, e.path("connect").asLong(), e.path("read").asLong(),
                e.path("write").asLong(), e.path("timeout").asLong(), e.path("status").asLong(),
                n.path("bytes").asLong(), raw);
    }

    static String lastLines(String text, int n) {
        List<String> lines = text.strip().lines().toList();
        return String.join(" | ", lines.subList(Math.max(0, lines.size() - n), lines.size()));
    }
}
