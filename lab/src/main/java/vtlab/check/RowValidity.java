package vtlab.check;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import vtlab.data.Columns;
import vtlab.data.AgentLoad;
import vtlab.data.RowValues;
import vtlab.plan.Row;

/**
 * Judges one row's measured numbers against its checks ({@link Validity}: the bound, Little's law or the open model's
 * in-flight cap, saturation, the rate held, drops, agents that fell behind) into the row's validity columns, flags,
 * status and note. The runner measures and calls this; what is valid evidence is decided here only.
 */
public final class RowValidity {
    private RowValidity() {}

    /** One second of the hold as the generator saw it: answered requests and errors. */
    public record Second(long answered, long errors) {}

    /**
     * What the generator measured over the hold, as the checks need it.
     *
     * @param dropped open model: requests due but never sent (0 where none is reported)
     * @param seconds the hold second by second (empty where the generator gives no series)
     * @param agents  load from several agents (a run across hosts): what each one did; empty otherwise
     */
    public record Measured(double rps, double meanMs, double errorRate, double durationS, long dropped, List<Second> seconds,
                           List<AgentLoad> agents) {}

    /**
     * Where the row ran and what the runner knows besides the load.
     *
     * @param sharedCpu      the CPU the SUT and the generator shared (--allow-shared-cpus), else null
     * @param inFlightLimit  open model: the most requests the generator keeps under way at the row's rate
     * @param maxConnections the SUT's connector limit from its runtime-info (null: not reported)
     * @param warmupSteady   whether the warm-up settled (null: not known)
     * @param faultFromS     for a row with a fault, the hold's second it began (null: no fault)
     * @param probeErrors    what the probes could not read, for the note
     */
    public record Context(int loadCores, int appCores, String sharedCpu, int inFlightLimit, Integer maxConnections,
                          Boolean warmupSteady, Integer faultFromS, List<String> probeErrors) {}

    /**
     * The validity checks over what was measured, into the row; reads the tiers' CPU (load_cpu_pct, app_cpu_pct) the
     * probes already put there.
     *
     * @param ctx a fault row's rate and errors are judged on the seconds before its fault (was the rig healthy?); what
     *            the fault did is its verdict, not a flaw
     */
    public static void judge(RowValues out, Row row, Measured m, Context ctx) {
        if (row.open()) {
            open(out, row, m, ctx);
            return;
        }
        double rps = m.rps();
        out.put(Validity.BOUND_RATIO, Validity.boundRatio(rps, row.boundRps()));
        double little = Validity.littlesLawRatio(row.concurrency(), rps, m.meanMs());
        out.put(Validity.LITTLE_RATIO, little);
        out.put(Validity.LITTLE_OK, Validity.littlesLawOk(little));
        Double loadCpu = number(out.get(Columns.LOAD_CPU)), appCpu = number(out.get(Columns.APP_CPU));
        boolean genBound = Validity.saturated(loadCpu, ctx.loadCores());
        out.put(Validity.GENERATOR_BOUND, loadCpu == null ? null : genBound);
        List<String> flags = new ArrayList<>(Validity.flags(new Validity.Inputs(row.concurrency(), rps, m.errorRate(), little, loadCpu,
                ctx.loadCores(), appCpu, ctx.appCores(), ctx.maxConnections(), row.boundRps())));
        Validity.CheckResult agents = Validity.agentsBehind(m.agents(), false); // load from several hosts: each kept up?
        flags.addAll(agents.flags());
        conclude(out, row, flags, agents.notes(), ctx);
    }

    /** An open row's checks (see {@link Validity#openFlags}): rate held, overload, in-flight cap. */
    private static void open(RowValues out, Row row, Measured m, Context ctx) {
        double rps = m.rps(), errorRate = m.errorRate(), holdS = m.durationS();
        long dropped = m.dropped();
        List<String> faultNotes = new ArrayList<>();
        Integer faultFromS = ctx.faultFromS();
        if (faultFromS != null) {
            // the seconds before the generator's first request (its start-up: k6 readies its VUs) and the first one it
            // sent in (it began within it) are not seconds of a healthy rig at its rate: judged from the next on
            List<Second> all = m.seconds();
            int first = 0;
            while (first < all.size() && all.get(first).answered() + all.get(first).errors() == 0) first++;
            first = Math.min(first + 1, faultFromS);
            List<Second> before = all.subList(first, Math.max(first, Math.min(faultFromS, all.size())));
            if (before.isEmpty()) {
                faultNotes.add("the fault began in the hold's first second: no healthy seconds to judge the rig on");
            } else {
                long answered = before.stream().mapToLong(Second::answered).sum();
                long errors = before.stream().mapToLong(Second::errors).sum();
                rps = answered / (double) before.size();
                errorRate = answered + errors == 0 ? 0 : errors / (double) (answered + errors);
                holdS = before.size();
                dropped = 0; // requests never sent because of the fault are its verdict (never_answered)
                faultNotes.add("fault row: rate and errors judged on the " + before.size() + " s before the fault; what the fault did is in fault_verdict");
            }
        }
        out.put(Validity.BOUND_RATIO, Validity.openBoundRatio(rps, row.rate(), row.boundRps()));
        int limit = ctx.inFlightLimit();
        double share = Validity.inFlightShare(row.rate(), m.meanMs(), limit);
        out.put(Validity.LITTLE_RATIO, share);
        out.put(Validity.LITTLE_OK, share < Validity.IN_FLIGHT_SHARE);
        Double loadCpu = number(out.get(Columns.LOAD_CPU)), appCpu = number(out.get(Columns.APP_CPU));
        out.put(Validity.GENERATOR_BOUND, loadCpu == null ? null : Validity.saturated(loadCpu, ctx.loadCores()));
        Validity.CheckResult v = Validity.openFlags(new Validity.OpenInputs(row.rate(), rps, m.meanMs(), limit, dropped,
                errorRate, loadCpu, ctx.loadCores(), appCpu, ctx.appCores(), row.boundRps(), holdS, row.rateProfile()));
        List<String> notes = new ArrayList<>(faultNotes);
        notes.addAll(v.notes());
        Validity.CheckResult agents = Validity.agentsBehind(m.agents(), v.flags().contains("overloaded")); // load from several hosts: each kept up?
        List<String> flags = new ArrayList<>(v.flags());
        flags.addAll(agents.flags());
        notes.addAll(agents.notes());
        conclude(out, row, flags, notes, ctx);
    }

    /**
     * Flags, status and note of a row from its model's checks: a warm-up that never settled is added as a caveat (the
     * hold may still include JIT or pool growth; not voiding), requests run on the other kind of thread than the row's
     * mode void it (thread-mode-mixed: the served probe's count, or a proof that says so), and the row is flagged when
     * any flag voids it.
     */
    private static void conclude(RowValues out, Row row, List<String> checked, List<String> checkNotes, Context ctx) {
        List<String> flags = new ArrayList<>(checked);
        Validity.CheckResult mode = Validity.threadMode(row.threadMode(), vtlab.stack.Stack.threadsOf(row.stack(), row.threadMode()), whole(out.get(Columns.SUT_REQUESTS_PLATFORM)),
                whole(out.get(Columns.SUT_REQUESTS_VIRTUAL)), out.get(Columns.MODE_PROOF) instanceof String s ? s : null);
        flags.addAll(mode.flags());
        checkNotes = new ArrayList<>(checkNotes);
        checkNotes.addAll(mode.notes());
        Long dropped = whole(out.get(Columns.LISTEN_OVERFLOWS));
        if (dropped != null && dropped > 0) {
            flags.add("accept-queue");
            checkNotes.add(acceptQueueNote(dropped, flags.contains("littles-law")));
        }
        if (Boolean.FALSE.equals(ctx.warmupSteady())) flags.add("warmup-not-steady");
        double jit = out.get(Columns.APP_CPU_BY_THREAD) instanceof String byThread ? vtlab.data.Rows.cpuGroupPct(byThread, "jit") : 0;
        if (jit >= Validity.JIT_BUSY_PCT) {
            flags.add("jit-busy");
            checkNotes.add(String.format(java.util.Locale.ROOT, "jit-busy: the JIT compiler used %.0f%% of a core in the hold, so the server was"
                    + " still compiling: its numbers are not its steady state (a longer --warmup, or --warmup-max, lets it settle)", jit));
        }
        String shared = ctx.sharedCpu(); // allowed by --allow-shared-cpus, else refused before the run
        if (shared != null) flags.add("shared-cpu");
        Double others = number(out.get(Columns.OTHERS_CPU));
        boolean busy = others != null && others >= Validity.BUSY_MACHINE_PCT;
        if (busy) flags.add("busy-machine");
        Double stolen = number(out.get(Columns.STEAL_CPU));
        boolean stole = stolen != null && stolen >= Validity.STOLEN_CPU_PCT;
        if (stole) flags.add("stolen-cpu");
        out.put(Validity.FLAGS, String.join(";", flags));
        boolean voided = flags.stream().anyMatch(Validity::voids);
        out.put(Validity.STATUS, voided ? "flagged" : "ok");
        List<String> notes = new ArrayList<>();
        if (voided) notes.add("flagged: " + flags.stream().filter(Validity::voids).collect(Collectors.joining(", ")));
        notes.addAll(checkNotes);
        if (shared != null) notes.add("SUT and generator shared CPU " + shared + " (--allow-shared-cpus): the generator's work was taken from the SUT's");
        if (busy) notes.add(String.format(java.util.Locale.ROOT, "busy-machine: other processes used %.0f%% of a core during the hold"
                + " (a build, a browser, another run): the tiers' CPUs were not theirs alone", others));
        if (stole) notes.add(String.format(java.util.Locale.ROOT, "stolen-cpu: the hypervisor gave %.0f%% of a core of this VM's CPUs to"
                + " other guests during the hold: the tiers ran slower than their own ticks say", stolen));
        if (!ctx.probeErrors().isEmpty()) notes.add("probe errors: " + String.join("; ", ctx.probeErrors()));
        out.put(Validity.NOTE, String.join(" | ", notes));
    }

    /**
     * A caveat, not a fault of the number by itself: the connections the kernel dropped at the hold's start began a
     * second or more late (its retry), so a closed row counts less than the server could do; where Little's law then
     * fails (connections idle) this is why.
     */
    static String acceptQueueNote(long dropped, boolean littles) {
        return "accept-queue: " + dropped + " connection handshake(s) dropped by a full accept queue in the hold (ListenOverflows):"
                + " those connections began a second or more late" + (littles
                ? ", which is why the connections sat idle (littles-law): the server's accept queue is its first limit here"
                : "") + "; a larger accept queue (Tomcat acceptCount, Jetty acceptQueueSize, Helidon backlog; servers: --accept-queue) removes it";
    }

    private static Long whole(Object o) {
        return o instanceof Number n ? n.longValue() : null;
    }

    private static Double number(Object o) {
        return o instanceof Number n ? n.doubleValue() : null;
    }
}
