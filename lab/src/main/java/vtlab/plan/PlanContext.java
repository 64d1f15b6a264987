package vtlab.plan;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import vtlab.cli.Options;
import vtlab.cli.UsageError;
import vtlab.tier.Jdk;

/** What every experiment's plan shares: the JDKs to run on and the common timing options. */
public record PlanContext(List<Jdk> jdks, List<String> jvmArgs) {

    public static PlanContext from(Options o) throws UsageError {
        List<Jdk> jdks = new ArrayList<>();
        for (String spec : o.all("jdk")) jdks.add(Jdk.resolve(spec));
        if (jdks.isEmpty()) jdks.add(Jdk.current());
        String args = o.string("jvm-args", "-Xms512m -Xmx512m");
        return new PlanContext(List.copyOf(jdks), args.isBlank() ? List.of() : List.of(args.trim().split("\\s+")));
    }

    /** Warm-up, hold and reps with an experiment's own defaults; --quick shortens them for a smoke run. */
    public record Timing(Duration warmup, Duration hold, int reps) {}

    public Timing timing(Options o, Duration warmup, Duration hold, int reps) throws UsageError {
        if (o.flag("quick")) {
            warmup = Duration.ofSeconds(Math.min(3, warmup.toSeconds()));
            hold = Duration.ofSeconds(Math.min(5, hold.toSeconds()));
            reps = 1;
        }
        return new Timing(o.duration("warmup", warmup, true), o.duration("hold", hold, false), o.positiveInt("reps", reps));
    }
}
