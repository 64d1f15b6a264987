package vtlab.check;

import vtlab.stack.ThreadMode;

import java.util.ArrayList;
import java.util.List;

import vtlab.data.AgentLoad;
import vtlab.data.Rows;
import vtlab.plan.RateProfile;

import vtlab.data.Column;
import vtlab.data.Columns;
import vtlab.stack.ThreadMode.Threads;

/**
 * The checks every row carries, so no number is taken on faith: achieved vs theoretical bound, Little's law
 * (connections = throughput x mean latency in a closed model), and whether a tier (above all the generator) was
 * saturated.
 */
public final class Validity {
    /** A tier at or above this share of its cores is saturated. */
    public static final double SATURATED = 0.90;
    /** Little's law tolerance. */
    public static final double LITTLE_TOLERANCE = 0.10;
    /**
     * Other processes' CPU during a hold (% of one core, the whole machine) at which the row is not the service's
     * alone: a quarter of a core on a 2-CPU machine where the SUT and the generator have one CPU each.
     */
    public static final double BUSY_MACHINE_PCT = 25.0;
    /**
     * CPU the hypervisor stole during a hold (% of one core, the whole machine) at which the row is flagged: a tenth
     * of a core, against a quiet VM's 0.3% here; no process's ticks show it, so a number stays plausible and is low (a
     * row with 28% stolen in its 4 s hold, no warm-up, ran at 0.89 of its bound). A caveat for now
     * ({@link vtlab.data.Rows#voids}).
     */
    public static final double STOLEN_CPU_PCT = 10.0;
    /** A closed row below this share of its bound, with the SUT not saturated, is flagged below-bound. */
    public static final double BOUND_LOW = 0.90;
    /** A row above this share of its bound is flagged above-bound (the bound is a ceiling, not a goal). */
    public static final double BOUND_HIGH = 1.05;
    /** A row whose share of failed requests is above this (0.1%) is flagged errors. */
    public static final double ERROR_RATE_MAX = 0.001;

    public static final Column BOUND_RATIO = Columns.BOUND_RATIO;
    public static final Column LITTLE_RATIO = Columns.LITTLE_RATIO;
    public static final Column LITTLE_OK = Columns.LITTLE_OK;
    public static final Column GENERATOR_BOUND = Columns.GENERATOR_BOUND;
    public static final Column FLAGS = Columns.FLAGS;
    public static final Column STATUS = Columns.STATUS;
    public static final Column NOTE = Columns.NOTE;

    /** The columns the checks fill. */
    public static final List<Column> COLUMNS = List.of(BOUND_RATIO, LITTLE_RATIO, LITTLE_OK, GENERATOR_BOUND, FLAGS, STATUS, NOTE);

    private Validity() {}

    public static Double boundRatio(double rps, Double boundRps) {
        return boundRps == null || boundRps <= 0 ? null : rps / boundRps;
    }

    /** In a closed model every connection always has one request outstanding: L = lambda x W. */
    public static double littlesLawRatio(int connections, double rps, double meanLatencyMs) {
        return connections == 0 ? 0 : rps * meanLatencyMs / 1000.0 / connections;
    }

    /**
     * In a closed model L = X x W cannot exceed the connections, so a ratio well below 1 means connections sat idle
     * (the generator did not keep the model closed): the row is void. A ratio above 1 is not a fault of the SUT:
     * wrk corrects its latency histogram for coordinated omission (stats_correct) before reporting, which raises
     * the mean it gives whenever there is a tail, most on microsecond workloads. So only the low side is checked.
     */
    public static boolean littlesLawOk(double ratio) {
        return ratio >= 1 - LITTLE_TOLERANCE;
    }

    /** cpuPct as top shows it (100 = one core) against the cores the tier is pinned to. */
    public static boolean saturated(Double cpuPct, int cores) {
        return cpuPct != null && cores > 0 && cpuPct >= SATURATED * 100 * cores;
    }

    /**
     * The JIT's share of a core in a hold above which the row says the server was still compiling (a settled warm-up
     * leaves it at 2% or less, WarmUp's own test; a 3 s warm-up left Spring WebFlux's at 26-43% on one core).
     */
    public static final double JIT_BUSY_PCT = 10;

    /** Flags to attach to a finished row; an empty list means the row's numbers stand. */
    public static List<String> flags(Inputs in) {
        List<String> f = new ArrayList<>();
        if (saturated(in.loadCpuPct(), in.loadCores())) f.add("generator-bound");
        if (!littlesLawOk(in.littleRatio())) f.add("littles-law");
        if (in.errorRate() > ERROR_RATE_MAX) f.add("errors");
        if (in.maxConnections() != null && in.connections() > in.maxConnections()) f.add("over-max-connections");
        boolean appBound = saturated(in.appCpuPct(), in.appCores());
        if (appBound) f.add("app-cpu-bound");
        Double ratio = boundRatio(in.rps(), in.boundRps());
        if (ratio != null && ratio > BOUND_HIGH) f.add("above-bound");
        if (ratio != null && ratio < BOUND_LOW && !appBound) f.add("below-bound");
        return f;
    }

    /** An open row's achieved rate must be within this share of what it could reach (min of target and bound). */
    public static final double RATE_TOLERANCE = 0.02;
    /** Little's law in an open row: offered rate x mean latency at or above this share of the in-flight cap. */
    public static final double IN_FLIGHT_SHARE = 0.90;

    /** Open model: achieved over what the row could reach, the target or, when overloaded, the bound. */
    public static double openBoundRatio(double achievedRps, double targetRps, Double boundRps) {
        return achievedRps / reachable(targetRps, boundRps);
    }

    static double reachable(double targetRps, Double boundRps) {
        return boundRps == null || boundRps <= 0 ? targetRps : Math.min(targetRps, boundRps);
    }

    /** Open model, Little's law: requests in flight (offered rate x mean latency) over the generator's cap. */
    public static double inFlightShare(double targetRps, double meanMs, int inFlightCap) {
        return inFlightCap <= 0 ? 0 : targetRps * meanMs / 1000.0 / inFlightCap;
    }

    /**
     * The checks of an open-model row, with a note for each flag that needs words. The closed model's Little's law
     * (connections always busy) does not apply; instead the generator must have kept the model open (in-flight cap
     * not reached, nothing dropped) and sent the rate asked for.
     */
    public static CheckResult openFlags(OpenInputs in) {
        List<String> f = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        boolean genBound = saturated(in.loadCpuPct(), in.loadCores()), appBound = saturated(in.appCpuPct(), in.appCores());
        if (genBound) f.add("generator-bound");
        // a profile's spike above the bound is an overload while it lasts, whatever the mean
        RateProfile profile = in.profile();
        double peak = profile == null ? in.targetRps() : profile.peakRate();
        boolean overloaded = in.boundRps() != null && in.boundRps() > 0 && peak > in.boundRps();
        double ratio = openBoundRatio(in.achievedRps(), in.targetRps(), in.boundRps());
        // an overloaded row holds its rate when it completes at the bound: the rest queues (that is the finding)
        if (Math.abs(ratio - 1) > RATE_TOLERANCE) {
            f.add("rate-not-held");
            String why = genBound ? "generator saturated (load CPU " + pct(in.loadCpuPct()) + " of " + in.loadCores() + " cores)"
                    : appBound ? "SUT saturated (app CPU " + pct(in.appCpuPct()) + " of " + in.appCores() + " cores)"
                    : "neither tier saturated";
            notes.add(String.format(java.util.Locale.ROOT, "rate-not-held: %.0f req/s achieved of %.0f reachable (%+.1f%%): %s",
                    in.achievedRps(), reachable(in.targetRps(), in.boundRps()), (ratio - 1) * 100, why));
        }
        if (overloaded) {
            f.add("overloaded");
            if (profile == null) {
                notes.add(String.format(java.util.Locale.ROOT, "overloaded: %.0f req/s offered above the bound of %.0f: the queue grows"
                        + " for the whole hold, so latency grows with the hold's length (not a steady-state number)", in.targetRps(), in.boundRps()));
            } else {
                notes.add(String.format(java.util.Locale.ROOT, "overloaded: the rate profile's peak of %.0f req/s is above the bound of %.0f"
                        + " during %s of the hold: the queue grows while it is, so latency then is not a steady-state number",
                        peak, in.boundRps(), profile.aboveText(in.boundRps(), in.holdS())));
            }
        }
        double share = inFlightShare(in.targetRps(), in.meanMs(), in.inFlightCap());
        // overloaded: the queue is the overload's, wherever it waits (server or generator)
        if (share >= IN_FLIGHT_SHARE && !overloaded) {
            f.add("in-flight-cap");
            notes.add(String.format(java.util.Locale.ROOT, "in-flight-cap: rate x mean latency = %.0f in flight against a cap of %d:"
                    + " the generator could not keep the model open", share * in.inFlightCap(), in.inFlightCap()));
        }
        // requests due but never sent are missing from the histogram, and they are the ones that would have waited
        // longest: a few are the schedule's edge, more than DROPPED_SHARE leave the tail unmeasured. An overloaded
        // row's backlog is its finding (the queue it could not serve), already marked as no steady state: a note.
        long due = Math.round(in.targetRps() * in.holdS());
        if (in.dropped() > 0) {
            boolean many = due > 0 && in.dropped() > DROPPED_SHARE * due;
            if (many && !overloaded) f.add("dropped");
            notes.add(String.format(java.util.Locale.ROOT, "dropped: %d of %d requests due were never sent (%.2f%%)%s", in.dropped(), due,
                    due > 0 ? 100.0 * in.dropped() / due : 0, !many ? "" : overloaded
                            ? ": the backlog still queued when the hold ended; the true tail is longer still"
                            : ": the slowest tail is unmeasured"));
        }
        if (in.errorRate() > ERROR_RATE_MAX) f.add("errors");
        if (appBound) f.add("app-cpu-bound");
        return new CheckResult(List.copyOf(f), List.copyOf(notes));
    }

    private static String pct(Double cpuPct) {
        return cpuPct == null ? "?" : String.format(java.util.Locale.ROOT, "%.0f%%", cpuPct);
    }

    /**
     * What an open row's checks read. dropped: requests the generator did not send because the in-flight cap was
     * reached (0 from a generator that does not report it). profile: the rate the row offered over its hold
     * (--rate-profile; targetRps is then its mean), null for a constant rate.
     */
    public record OpenInputs(double targetRps, double achievedRps, double meanMs, int inFlightCap, long dropped,
                             double errorRate, Double loadCpuPct, int loadCores, Double appCpuPct, int appCores,
                             Double boundRps, double holdS, RateProfile profile) {
        /** A row at a constant rate. */
        public OpenInputs(double targetRps, double achievedRps, double meanMs, int inFlightCap, long dropped,
                          double errorRate, Double loadCpuPct, int loadCores, Double appCpuPct, int appCores,
                          Double boundRps, double holdS) {
            this(targetRps, achievedRps, meanMs, inFlightCap, dropped, errorRate, loadCpuPct, loadCores, appCpuPct, appCores,
                    boundRps, holdS, null);
        }
    }

    /** An open-model load agent that sent less than this share of its rate fell behind. */
    public static final double AGENT_SHARE_MIN = 0.95;
    /**
     * An agent whose rate is below this share of the other agents' median fell behind: closed model, per connection
     * (connections split evenly should each answer alike); open and overloaded, as a share of its rate (every agent
     * short by the same is the overload's, one short by more is its own).
     */
    public static final double AGENT_PEERS_MIN = 0.80;

    /**
     * Load agents (a run across hosts) that fell behind, each flagged agent-behind:NAME with a note: a row whose load
     * was not the one planned is not evidence, and the name says which host to look at. Open model: an agent that sent
     * under {@link #AGENT_SHARE_MIN} of its share, or dropped more than {@link #DROPPED_SHARE} of its requests due
     * (k6: no VU free; oha: still queued at the end); when the row is overloaded every agent falls short alike, so
     * only one far below the others ({@link #AGENT_PEERS_MIN}) is. Closed model: an agent whose rate per connection
     * is below {@link #AGENT_PEERS_MIN} of the others' median.
     */
    public static CheckResult agentsBehind(List<AgentLoad> agents, boolean overloaded) {
        List<String> f = new ArrayList<>(), notes = new ArrayList<>();
        for (AgentLoad a : agents) {
            String flag = "agent-behind:" + a.name();
            List<AgentLoad> others = agents.stream().filter(o -> o != a).toList();
            if (a.shareRps() == null) {
                if (others.isEmpty()) continue;
                double median = median(others.stream().mapToDouble(AgentLoad::perConnection).toArray());
                if (a.perConnection() < AGENT_PEERS_MIN * median) {
                    f.add(flag);
                    notes.add(String.format(java.util.Locale.ROOT, "%s: %.2f req/s per connection (%d connections, %.0f req/s) against the"
                            + " other agents' median of %.2f (%.0f%%)", flag, a.perConnection(), a.connections(), a.rps(), median, 100 * a.perConnection() / median));
                }
                continue;
            }
            double share = a.shareRps() > 0 ? a.attemptedRps() / a.shareRps() : 1;
            long due = Math.round(a.shareRps() * a.durationS());
            long dropped = a.dropped() == null ? 0 : a.dropped();
            if (overloaded) {
                if (others.isEmpty()) continue;
                double median = median(others.stream().mapToDouble(o -> o.shareRps() > 0 ? o.attemptedRps() / o.shareRps() : 1).toArray());
                if (share < AGENT_PEERS_MIN * median) {
                    f.add(flag);
                    notes.add(String.format(java.util.Locale.ROOT, "%s: sent %.0f%% of its %.1f req/s, the other agents %.0f%% (median): the row"
                            + " is overloaded, but this agent fell further behind", flag, 100 * share, a.shareRps(), 100 * median));
                }
            } else if (share < AGENT_SHARE_MIN) {
                f.add(flag);
                notes.add(String.format(java.util.Locale.ROOT, "%s: sent %.1f req/s of its %.1f req/s share (%.0f%%)%s", flag, a.attemptedRps(),
                        a.shareRps(), 100 * share, dropped > 0 ? ", " + dropped + " due never sent" : ""));
            } else if (due > 0 && dropped > DROPPED_SHARE * due) {
                f.add(flag);
                notes.add(String.format(java.util.Locale.ROOT, "%s: %d of its %d requests due were never sent (%.1f%%)", flag, dropped, due, 100.0 * dropped / due));
            }
        }
        return new CheckResult(List.copyOf(f), List.copyOf(notes));
    }

    static double median(double[] xs) {
        double[] s = xs.clone();
        java.util.Arrays.sort(s);
        int n = s.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    /** Requests due but not sent, over those due, above which an open row's tail is not measured. */
    static final double DROPPED_SHARE = 0.01;

    /** Flags and the notes that explain them. */
    public record CheckResult(List<String> flags, List<String> notes) {}

    /**
     * The flag of a row whose requests ran on both kinds of thread: a virtual row some of whose requests platform threads
     * served (or a platform row with requests on virtual threads) measures neither mode alone. It voids the row.
     */
    public static final String THREAD_MODE_MIXED = "thread-mode-mixed";

    /**
     * What ran a row's requests against its thread mode: {@link #THREAD_MODE_MIXED} with a note saying how many ran on
     * the other kind of thread, from the SUT's own count in the hold (runtime-info's requests_by_thread) or, for a
     * service without runtime-info, from the thread-mode proof that begins with the flag (ThreadModeCheck's witnesses).
     *
     * @param runsOn     what the stack declares runs the mode's requests (stack.json "modes"), not the mode's name; an
     *                   event loop's count is not checked (the loop accepts every request, whatever runs its handler)
     * @param onPlatform requests the SUT ran on platform threads in the hold (null: not counted)
     * @param onVirtual  requests it ran on virtual threads (null: not counted)
     * @param proof      the row's thread_mode_proof (null or empty: none)
     */
    public static CheckResult threadMode(String mode, ThreadMode.Threads runsOn, Long onPlatform, Long onVirtual, String proof) {
        boolean virtual = runsOn.virtual();
        if (runsOn.checked() && onPlatform != null && onVirtual != null) {
            long other = virtual ? onPlatform : onVirtual, all = onPlatform + onVirtual;
            if (other > 0) {
                return new CheckResult(List.of(THREAD_MODE_MIXED), List.of(THREAD_MODE_MIXED + ": " + other + " of the hold's " + all + " requests ran on "
                        + (virtual ? Threads.PLATFORM.word : Threads.VIRTUAL.word) + " threads in a " + mode + " row (the SUT's own count, runtime-info's requests_by_thread)"));
            }
        }
        if (proof != null && proof.startsWith(THREAD_MODE_MIXED + ":")) return new CheckResult(List.of(THREAD_MODE_MIXED), List.of(proof));
        return new CheckResult(List.of(), List.of());
    }

    /** Flags that void a row as evidence: the rule lives with the readers of rows (see {@link Rows#voids}). */
    public static boolean voids(String flag) {
        return Rows.voids(flag);
    }

    public record Inputs(int connections, double rps, double errorRate, double littleRatio, Double loadCpuPct,
                         int loadCores, Double appCpuPct, int appCores, Integer maxConnections, Double boundRps) {}
}
