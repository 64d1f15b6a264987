package vtlab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import vtlab.plan.RateProfile;
import vtlab.plan.Row;
import vtlab.stack.Params;
import vtlab.tier.tool.Jdk;

/** The window a row's verdict judges: a fault's as applied, a spike's rise, or none. */
class HoldWindowTest {
    static Row row() {
        return Row.builder().experiment("faults").stack("spring-mvc").threadMode("virtual").workload("order-summary").concurrency(10)
                .rep(1).jdk(Jdk.current()).params(Params.NONE).tiers(List.of("pg", "stub")).warmup(Duration.ZERO)
                .hold(Duration.ofSeconds(20)).build().atRate(100);
    }

    @Test
    void aSpikeIsJudgedWhereTheRateIsAboveTheOneItStartsAt() {
        HoldWindow w = HoldWindow.of(FaultSchedule.NONE, row().atProfile(RateProfile.parse("100@0s,400@5s-8s,100@12s")));
        assertEquals("spike:100@0s,400@5s-8s,100@12s", w.what());
        assertEquals(5.0, w.fromS(), 1e-9, "the ramp starts rising at 5 s");
        assertEquals(12.0, w.toS(), 1e-9, "and is back to its start at 12 s");
        assertNull(w.faultFromS(), "a spike is the load itself: the seconds before it do not judge the rig's health");
    }

    @Test
    void aConstantRateOrAProfileThatNeverRisesHasNone() {
        assertNull(HoldWindow.of(FaultSchedule.NONE, row()));
        assertNull(HoldWindow.of(FaultSchedule.NONE, row().atProfile(RateProfile.parse("100@0s,50@5s"))));
    }

    @Test
    void aFaultsWindowIsTheOneApplied() throws Exception {
        FaultScheduleTest.Recorder stub = new FaultScheduleTest.Recorder();
        FaultSchedule s = FaultSchedule.of(FaultScheduleTest.flap(200, 400), Map.of("stub", stub));
        try (s) {
            s.start(System.nanoTime());
            Thread.sleep(600);
        }
        HoldWindow w = HoldWindow.of(s, row());
        assertEquals("stub:flap@200ms-400ms", w.what());
        assertTrue(w.fromS() >= 0.19 && w.fromS() < 0.4 && w.toS() >= 0.39 && w.toS() < 0.6, w.toString());
        assertEquals(0, w.faultFromS(), "judged healthy on the seconds before the one the fault began in");
    }
}
