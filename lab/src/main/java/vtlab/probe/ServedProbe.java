package vtlab.probe;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import vtlab.data.Column;
import vtlab.stack.ThreadMode.Threads;

/**
 * The requests the SUT served in the hold by the kind of thread that ran them: its runtime-info's requests_by_thread
 * (the servlet and Spring MVC stacks count each request on the thread that runs it), read when the hold begins and ends. A
 * virtual row with requests on platform threads is flagged thread-mode-mixed from these ({@link vtlab.check.RowValidity}):
 * runtime-info's thread_mode says how the server was configured, this says what ran the requests. Added to every row
 * (two runtime-info reads); a stack that does not count leaves both columns empty.
 */
public final class ServedProbe implements Probe {
    public static final String NAME = "served";
    public static final Column ON_PLATFORM = vtlab.data.Columns.SUT_REQUESTS_PLATFORM;
    public static final Column ON_VIRTUAL = vtlab.data.Columns.SUT_REQUESTS_VIRTUAL;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private long[] before, after;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "requests the SUT ran in the hold by kind of thread, from its runtime-info (sut_requests_platform, sut_requests_virtual; the servlet and Spring MVC stacks);"
                + " on every row: a virtual row with requests on platform threads is flagged thread-mode-mixed";
    }

    @Override
    public List<Column> columns() {
        return List.of(ON_PLATFORM, ON_VIRTUAL);
    }

    /** Over HTTP: wherever the SUT runs. */
    @Override
    public boolean remote() {
        return true;
    }

    /** The probes with this one (every row gets it: what ran the requests is part of every row's validity). */
    public static List<String> with(List<String> probes) {
        return Probes.with(probes, NAME);
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
        out.put(ON_PLATFORM, after[0] - before[0]);
        out.put(ON_VIRTUAL, after[1] - before[1]);
    }

    /** {platform, virtual} since the SUT started, or null when it has no runtime-info or does not count. */
    long[] read(ProbeContext ctx) throws Exception {
        JsonNode info = PathsProbe.runtimeInfo(http, ctx);
        return info == null ? null : counts(info);
    }

    /** runtime-info's requests_by_thread as {platform, virtual}, or null without it. */
    static long[] counts(JsonNode info) {
        JsonNode n = info.path("requests_by_thread");
        if (!n.path(Threads.PLATFORM.word).canConvertToLong() || !n.path(Threads.VIRTUAL.word).canConvertToLong()) return null;
        return new long[] {n.path(Threads.PLATFORM.word).asLong(), n.path(Threads.VIRTUAL.word).asLong()};
    }
}
