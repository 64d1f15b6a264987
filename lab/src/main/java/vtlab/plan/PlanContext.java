package vtlab.plan;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.tier.CoreMap;
import vtlab.tier.Jdk;

/**
 * What every experiment's plan shares: the JDKs to run on, the SUT's JVM arguments and the common timing options.
 *
 * @param carriers  the virtual-thread scheduler's parallelism given to every SUT (-Djdk.virtualThreadScheduler.parallelism)
 * @param warmupMax how long a row's warm-up may go on waiting for a steady rate (see vtlab.run.WarmUp); --quick: no wait
 */
public record PlanContext(List<Jdk> jdks, List<String> jvmArgs, int carriers, Duration warmupMax) {
    public static final String CARRIERS_PROPERTY = "jdk.virtualThreadScheduler.parallelism";

    public static PlanContext from(Options o) throws UsageError {
        List<Jdk> jdks = new ArrayList<>();
        for (String spec : o.all("jdk")) jdks.add(Jdk.resolve(spec));
        if (jdks.isEmpty()) jdks.add(Jdk.current());
        String args = o.string("jvm-args", "-Xms512m -Xmx512m");
        List<String> jvmArgs = args.isBlank() ? List.of() : List.of(args.trim().split("\\s+"));
        int appCpus = CoreMap.compute(Runtime.getRuntime().availableProcessors(), o).count(CoreMap.APP);
        int carriers = carriers(o.string("carriers", "auto"), appCpus);
        if (jvmArgs.stream().anyMatch(a -> a.startsWith("-D" + CARRIERS_PROPERTY + "="))) {
            throw new UsageError("set the carrier count with --carriers, not with -D" + CARRIERS_PROPERTY + " in --jvm-args");
        }
        Duration warmupMax = o.duration("warmup-max", o.flag("quick") ? Duration.ZERO : Duration.ofSeconds(120), true);
        return new PlanContext(List.copyOf(jdks), jvmArgs, carriers, warmupMax);
    }

    /**
     * "auto" is the JVM's own default (one carrier per CPU the SUT may use) except on a one-CPU SUT, which gets two.
     * With a single carrier every virtual thread waits whenever the OS runs Tomcat's poller, the GC or the JIT on that
     * CPU instead; measured here at 1,000 connections of the sleep servlet: 10.1k req/s with one carrier, 14.6k with
     * two, for the same CPU time (README, "carriers").
     */
    static int carriers(String spec, int appCpus) throws UsageError {
        if (spec.equals("auto")) return Math.max(2, appCpus);
        try {
            int n = Integer.parseInt(spec.trim());
            if (n > 0 && n <= 32767) return n;
        } catch (NumberFormatException e) {
            // falls through to the usage error
        }
        throw new UsageError("--carriers must be auto or a whole number from 1 to 32767, not '" + spec + "'");
    }

    /** The run's --jvm-args (or the lab's default heap) plus the carrier count. */
    public List<String> jvmArgs() {
        return withCarriers(jvmArgs);
    }

    /** Some stacks need their own heap (see SpringRig): their arguments, still with the run's carrier count. */
    public List<String> withCarriers(List<String> args) {
        List<String> all = new ArrayList<>(args);
        all.add("-D" + CARRIERS_PROPERTY + "=" + carriers);
        return List.copyOf(all);
    }

    /** Warm-up, hold and reps with an experiment's own defaults; --quick shortens them for a smoke run. */
    public record Timing(Duration warmup, Duration hold, int reps) {}

    /**
     * An experiment's --reps, --warmup and --hold, declared with its defaults (warm-up and hold as durations, e.g.
     * "10s"); a note (e.g. how cold rows warm up) goes under them.
     */
    public static List<Opt> timingOptions(String warmup, String hold, int reps, String note) {
        return List.of(Opt.of("reps", Integer.toString(reps), "repetitions of each row (--quick: 1)"),
                Opt.of("warmup", warmup, "warm-up before each row's hold (--quick: at most 3s)"),
                Opt.of("hold", hold, "measured hold of each row (--quick: at most 5s)" + (note == null ? "" : "\n" + note)));
    }

    /** The timing declared by {@link #timingOptions}, with --quick's profile under the defaults. */
    public Timing timing(Options o, List<Opt> declared) throws UsageError {
        int reps = 0;
        Duration warmup = null, hold = null;
        for (Opt d : declared) {
            switch (d.name()) {
                case "reps" -> reps = Integer.parseInt(d.dflt());
                case "warmup" -> warmup = Opt.of("warmup", d.dflt(), "").duration(Options.parse(List.of()), true);
                case "hold" -> hold = Opt.of("hold", d.dflt(), "").duration(Options.parse(List.of()), false);
                default -> { }
            }
        }
        if (o.flag("quick")) {
            warmup = Duration.ofSeconds(Math.min(3, warmup.toSeconds()));
            hold = Duration.ofSeconds(Math.min(5, hold.toSeconds()));
            reps = 1;
        }
        return new Timing(o.duration("warmup", warmup, true), o.duration("hold", hold, false), o.positiveInt("reps", reps));
    }
}
