package vtlab.load.generator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import vtlab.tier.tool.Tools;
import vtlab.core.Secrets;
import vtlab.core.UsageError;
import vtlab.stack.Request;
import vtlab.load.Generator;
import vtlab.load.LoadSpec;
import vtlab.load.LoadResult;
import vtlab.load.ToolRun;

/**
 * hey (Go), the article's generator: a closed model of -c workers. Several times slower than wrk per request, so
 * the generator-bound flag matters more here. Its summary has percentiles up to p99 (no p99.9) and the slowest
 * request as max; errors come from its error distribution.
 *
 * <p>No histogram: hey prints either this summary or, with {@code -o csv}, one line per request, never both in one
 * run, and its CSV has lines for answered requests only (hey 0.1.4, requester/report.go: a request that failed is
 * counted in the error distribution, which only the summary prints). A CSV run would report a refused or timed-out
 * request as never sent, so the row keeps the summary: right error counts, and percentiles without the whole
 * distribution (wrk, the default, keeps it). For the same reason no per-second series ({@link LoadSeries}): the
 * CSV's per-request offsets would give one, and would drop every failed request from it.
 */
public final class HeyGenerator implements Generator {
    private Path hey;

    @Override
    public String name() {
        return "hey";
    }

    @Override
    public String description() {
        return "hey (Go), the article's tool; closed model, p99 at most (no p99.9) and no histogram, heavier per request than wrk";
    }

    @Override
    public void ensureAvailable() throws UsageError {
        try {
            hey = Tools.HEY.get();
        } catch (java.io.IOException e) {
            throw new UsageError("hey is needed and could not be installed: " + e.getMessage() + " (or: go install github.com/rakyll/hey@latest)");
        }
    }

    @Override
    public String version() {
        return "hey (" + hey + ")"; // hey prints no version
    }

    @Override
    public RunningLoad start(LoadSpec s) throws IOException {
        Files.createDirectories(s.rawDir());
        List<String> cmd = command(hey, s);
        return new ToolRun("hey", cmd, Secrets.toolCommand(cmd, "-H"), vtlab.proc.Env.NONE, s.rawDir(), s.stem(), HeyGenerator::parse);
    }

    /** hey on the load CPUs, sending the spec's request (its body from a file). */
    static List<String> command(Path hey, LoadSpec s) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("taskset", "-c", s.cpus(), hey.toString(),
                "-c", Integer.toString(s.connections()), "-z", Math.max(1, s.duration().toSeconds()) + "s",
                "-t", Long.toString(Math.max(1, s.timeout().toSeconds()))));
        cmd.addAll(requestArgs(s));
        cmd.add(s.url().toString());
        return cmd;
    }

    /**
     * The request as hey's and oha's flags (the two spell it alike): -m METHOD, -H "Name: value" per header, the
     * Content-Type with -T (hey would otherwise send its own, text/html, whatever -H says first), and the body's
     * file with -D, which both send byte for byte.
     */
    static List<String> requestArgs(LoadSpec s) throws IOException {
        Request r = s.request();
        List<String> args = new ArrayList<>(List.of("-m", r.method()));
        for (Request.Header h : r.headersBut(Request.CONTENT_TYPE)) args.addAll(List.of("-H", h.name() + ": " + h.value()));
        r.header(Request.CONTENT_TYPE).ifPresent(t -> args.addAll(List.of("-T", t)));
        if (r.body() != null) args.addAll(List.of("-D", r.body().file(s.rawDir()).toString()));
        return args;
    }

    private static final Pattern STATUS = Pattern.compile("^\\s*\\[(\\d{3})]\\s+(\\d+) responses", Pattern.MULTILINE);
    private static final Pattern ERROR = Pattern.compile("^\\s*\\[(\\d+)]\\s+(.*)$", Pattern.MULTILINE);

    /** Parses hey's text summary (times in seconds) into milliseconds. */
    public static LoadResult parse(String text, Path raw) throws LoadException {
        double total = secs(text, "Total:");
        if (Double.isNaN(total)) throw new LoadException("hey printed no summary: " + ToolRun.lastLines(text, 3));
        long ok = 0, status = 0;
        Matcher m = STATUS.matcher(text);
        while (m.find()) {
            long n = Long.parseLong(m.group(2));
            ok += n;
            if (Integer.parseInt(m.group(1)) >= 400) status += n; // as wrk counts non-2xx/3xx
        }
        long connect = 0, timeout = 0, read = 0;
        int errors = text.indexOf("Error distribution:");
        if (errors >= 0) {
            Matcher e = ERROR.matcher(text.substring(errors));
            while (e.find()) {
                long n = Long.parseLong(e.group(1));
                String what = e.group(2);
                if (what.contains("Timeout") || what.contains("deadline exceeded")) timeout += n;
                else if (what.contains("dial tcp") || what.contains("connect:")) connect += n;
                else read += n;
            }
        }
        return LoadResult.builder().requests(ok, total)
                .latencyMs(secs(text, "Average:") * 1000, pct(text, 50), pct(text, 90), pct(text, 95), pct(text, 99), Double.NaN,
                        secs(text, "Slowest:") * 1000)
                .errors(connect, read, 0, timeout, status).bytes((long) number(text, "Total data:")).raw(raw).build();
    }

    static double secs(String text, String label) {
        return number(text, label);
    }

    static double number(String text, String label) {
        Matcher m = Pattern.compile("^\\s*" + Pattern.quote(label) + "\\s+([0-9.]+|NaN)", Pattern.MULTILINE).matcher(text);
        return m.find() && !m.group(1).equals("NaN") ? Double.parseDouble(m.group(1)) : Double.NaN;
    }

    static double pct(String text, int p) {
        Matcher m = Pattern.compile("^\\s*" + p + "% in ([0-9.]+) secs", Pattern.MULTILINE).matcher(text);
        return m.find() ? Double.parseDouble(m.group(1)) * 1000 : Double.NaN;
    }
}
