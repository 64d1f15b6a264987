package vtlab.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import vtlab.data.Column;

/**
 * The SUT's context switches over the hold, summed over its threads, from /proc/PID/task/TID/status
 * (voluntary_ctxt_switches: the thread blocked or slept; nonvoluntary_ctxt_switches: the kernel took the CPU from a
 * thread that still wanted it). A carrier that spins (Thread.yield in a loop) shows in involuntary switches and CPU,
 * not in pinning: yield keeps a virtual thread mounted, so JFR records no pin.
 * Each thread is read at the start and at the end of the hold by thread id: a thread born in the hold counts whole,
 * a thread that ended in the hold loses what it did after the start (the kernel's per-thread counters go with it;
 * the process total of getrusage cannot be read from outside), so ctxsw_threads_exited says how many did. Per request
 * is the experiment's division by http_reqs: a probe does not see the load's count.
 */
public final class ContextSwitchProbe implements Probe {
    static final Column INVOL = vtlab.data.Columns.CTXSW_INVOL;
    static final Column VOL = vtlab.data.Columns.CTXSW_VOL;
    static final Column EXITED = Column.integer("ctxsw_threads_exited", "threads",
            "SUT threads that ended during the hold: their switches after the hold's start are not counted");

    /** A thread's two counters. */
    record Switches(long voluntary, long involuntary) {}

    private Map<Long, Switches> atStart;
    private Map<Long, Switches> atEnd;

    @Override
    public String name() {
        return "ctxsw";
    }

    @Override
    public String description() {
        return "SUT voluntary and involuntary context switches over the hold, all threads (/proc task status)";
    }

    @Override
    public List<Column> columns() {
        return List.of(INVOL, VOL, EXITED);
    }

    @Override
    public void start(ProbeContext ctx) {
        atStart = read(taskDir(ctx.app().pid()));
    }

    /** The window closes with the load, before other probes' finish() make the SUT switch (a jcmd, a JFR dump). */
    @Override
    public void stop(ProbeContext ctx) {
        atEnd = read(taskDir(ctx.app().pid()));
    }

    @Override
    public void finish(ProbeContext ctx, Measurements out) {
        if (atStart == null || atEnd == null || atEnd.isEmpty()) return;
        Switches d = delta(atStart, atEnd);
        out.put(INVOL, d.involuntary());
        out.put(VOL, d.voluntary());
        out.put(EXITED, atStart.keySet().stream().filter(t -> !atEnd.containsKey(t)).count());
    }

    static Path taskDir(long pid) {
        return Path.of("/proc", Long.toString(pid), "task");
    }

    /** Every thread's counters under a task folder (/proc/PID/task), by thread id; empty when the process is gone. */
    static Map<Long, Switches> read(Path taskDir) {
        Map<Long, Switches> out = new HashMap<>();
        try (Stream<Path> tasks = Files.list(taskDir)) {
            for (Path t : tasks.toList()) {
                try {
                    Switches s = parse(Files.readString(t.resolve("status")));
                    if (s != null) out.put(Long.parseLong(t.getFileName().toString()), s);
                } catch (IOException | NumberFormatException e) {
                    // the thread ended between the listing and the read
                }
            }
        } catch (IOException e) {
            // process gone: no reading
        }
        return out;
    }

    /** The two counters of one /proc status text, or null when it has neither (not a Linux status file). */
    static Switches parse(String status) {
        long vol = -1, invol = -1;
        for (String line : status.split("\n")) {
            if (line.startsWith("voluntary_ctxt_switches:")) vol = number(line);
            else if (line.startsWith("nonvoluntary_ctxt_switches:")) invol = number(line);
        }
        return vol < 0 || invol < 0 ? null : new Switches(vol, invol);
    }

    private static long number(String line) {
        try {
            return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Switches between two readings: per thread alive at the end, its end minus its start (0 for a thread born since). */
    static Switches delta(Map<Long, Switches> start, Map<Long, Switches> end) {
        long vol = 0, invol = 0;
        for (var e : end.entrySet()) {
            Switches s = start.getOrDefault(e.getKey(), new Switches(0, 0));
            // a thread id reused by a new thread reads lower than the old thread's start: count the new one whole
            boolean reused = e.getValue().voluntary() < s.voluntary() || e.getValue().involuntary() < s.involuntary();
            vol += e.getValue().voluntary() - (reused ? 0 : s.voluntary());
            invol += e.getValue().involuntary() - (reused ? 0 : s.involuntary());
        }
        return new Switches(vol, invol);
    }
}
