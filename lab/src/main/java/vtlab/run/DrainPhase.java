package vtlab.run;

import java.time.Duration;

import vtlab.plan.Drain;
import vtlab.plan.PlannedRow;
import vtlab.run.RowRunner.Steps;
import vtlab.tier.SutHandle;

/** The warm-up's (or the previous row's) queued requests would otherwise eat into the measured hold. */
final class DrainPhase implements Phase {
    static final Duration DRAIN_MAX = Duration.ofSeconds(60);

    @Override
    public String name() {
        return "drain";
    }

    @Override
    public void run(RowContext c) throws InterruptedException {
        long t0 = System.nanoTime();
        awaitIdle(c.planned, c.sut, c.steps);
        c.out.put(RowColumns.DRAIN_MS, (System.nanoTime() - t0) / 1_000_000);
    }

    /** Until the SUT has served what was sent before and each of the row's drains is idle (at most DRAIN_MAX each). */
    static void awaitIdle(PlannedRow planned, SutHandle sut, Steps steps) throws InterruptedException {
        steps.step("draining");
        sut.drain(DRAIN_MAX);
        for (Drain d : planned.drains()) {
            if (!d.await(sut.base(), DRAIN_MAX)) steps.step(d.what() + " did not go idle in " + DRAIN_MAX.toSeconds() + " s; measuring anyway");
        }
    }
}
