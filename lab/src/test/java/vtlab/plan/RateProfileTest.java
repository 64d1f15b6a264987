package vtlab.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.stack.Params;
import vtlab.tier.tool.Jdk;

class RateProfileTest {
    static final RateProfile SPIKE = RateProfile.parse("1000@0s,5000@10s,1000@20s");
    static final RateProfile RAMPS = RateProfile.parse("1000@0s, 5000@10s-15s, 1000@25s-30s");

    @Test
    void aStepJumpsAtItsTimeAndTheLastRateHolds() {
        assertEquals(1000, SPIKE.rateAt(0));
        assertEquals(1000, SPIKE.rateAt(9.999));
        assertEquals(5000, SPIKE.rateAt(10));
        assertEquals(5000, SPIKE.rateAt(19.5));
        assertEquals(1000, SPIKE.rateAt(20));
        assertEquals(1000, SPIKE.rateAt(1e6));
        assertEquals(5000, SPIKE.peakRate());
    }

    @Test
    void aRampRunsStraightFromThePreviousRate() {
        assertEquals(1000, RAMPS.rateAt(10));
        assertEquals(3000, RAMPS.rateAt(12.5), 1e-9);
        assertEquals(5000, RAMPS.rateAt(15));
        assertEquals(5000, RAMPS.rateAt(24));
        assertEquals(3000, RAMPS.rateAt(27.5), 1e-9);
        assertEquals(1000, RAMPS.rateAt(30));
    }

    @Test
    void theMeanIsTheRequestsDueOverTheHold() {
        // 10 s at 1000, 10 s at 5000, 10 s at 1000: 70,000 requests in 30 s
        assertEquals(70_000 / 30.0, SPIKE.meanRate(30), 1e-9);
        // 10 s at 1000, 5 s ramp (mean 3000), 10 s at 5000, 5 s ramp down (3000), 10 s at 1000: 100,000 in 40 s
        assertEquals(2500, RAMPS.meanRate(40), 1e-9);
        assertEquals(1000, RateProfile.parse("1000@0s").meanRate(7), 1e-9, "a single point is a constant rate");
    }

    @Test
    void aboveTheBoundNamesTheSecondsWhereTheRateIs() {
        assertEquals("10s-20s", SPIKE.aboveText(4000, 30));
        assertEquals("", SPIKE.aboveText(5000, 30), "at the bound is not above it");
        // the ramps cross 4000 three quarters of the way up (13.75 s) and a quarter of the way down (26.25 s)
        assertEquals("13.75s-26.25s", RAMPS.aboveText(4000, 40));
        assertEquals("0s-30s", SPIKE.aboveText(500, 30), "adjacent pieces make one window");
        List<double[]> twoSpikes = RateProfile.parse("100@0s,900@2s,100@3s,900@5s").above(500, 8);
        assertEquals(2, twoSpikes.size());
        assertEquals(5, twoSpikes.get(1)[0]);
        assertEquals(8, twoSpikes.get(1)[1]);
    }

    @Test
    void writtenBackAsGivenWithTimesNormalized() {
        assertEquals("1000@0s,5000@10s-15s,1000@25s-30s", RAMPS.spec());
        assertEquals("1000@0s,2500.5@1500ms,10@2s", RateProfile.parse("1000@0,2500.5@1.5s,10@2000ms").spec());
        assertEquals(RAMPS, RateProfile.parse(RAMPS.spec()));
    }

    @Test
    void knotsAreTheLinesCorners() {
        assertEquals(List.of(new RateProfile.Knot(Duration.ZERO, 1000), new RateProfile.Knot(Duration.ofSeconds(10), 1000),
                new RateProfile.Knot(Duration.ofSeconds(10), 5000), new RateProfile.Knot(Duration.ofSeconds(20), 5000),
                new RateProfile.Knot(Duration.ofSeconds(20), 1000)), SPIKE.knots());
    }

    @Test
    void refusesWhatDoesNotParseOrGoesBackwards() {
        record Bad(String spec, String why) {}
        for (Bad b : List.of(new Bad("", "give points"), new Bad("1000", "is not a point"), new Bad("1000@soon", "is not a point"),
                new Bad("1k@0s", "is not a point"), new Bad("1000@1.2.3s", "is not a time"),
                new Bad("1000@5s", "the first point must be a step at 0s"), new Bad("1000@0s-5s", "the first point must be a step at 0s"),
                new Bad("0@0s", "rates must be positive"), new Bad("1000@0s,-5@3s", "rates must be positive"),
                new Bad("1000@0s,2000@10s,3000@5s", "times go backwards: 3000@5s after 2000@10s"),
                new Bad("1000@0s,2000@10s-20s,3000@15s", "times go backwards"),
                new Bad("1000@0s,2000@10s,3000@10s", "times go backwards"),
                new Bad("1000@0s,2000@10s-5s", "a ramp must end after it starts"))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RateProfile.parse(b.spec()), b.spec());
            assertTrue(e.getMessage().contains(b.why()), b.spec() + ": " + e.getMessage());
        }
        // a ramp may start where a step or a ramp ends, and a step may follow a ramp's end at once
        RateProfile.parse("1000@0s,5000@0s-10s,1000@10s");
        RateProfile.parse("1000@0s,5000@10s-12s,1000@12s-14s");
    }

    @Test
    void aPointMustFallWithinTheHold() {
        SPIKE.check(Duration.ofSeconds(21));
        RAMPS.check(Duration.ofSeconds(30));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SPIKE.check(Duration.ofSeconds(20)));
        assertEquals("point 1000@20s is beyond the 20s hold: lengthen --hold or end the profile sooner", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RAMPS.check(Duration.ofSeconds(29)));
        RateProfile.parse("1000@0s").check(Duration.ofSeconds(1));
    }

    static Row row(int holdS) {
        return Row.builder().experiment("servlet").stack("servlet").threadMode("platform").workload("sleep").concurrency(10_000).rep(1)
                .jdk(Jdk.current()).params(Params.NONE.with("ms", "50")).boundRps(4000.0).boundNote("200 threads / 50 ms")
                .warmup(Duration.ZERO).hold(Duration.ofSeconds(holdS)).build();
    }

    @Test
    void aRowFollowingAProfileIsOpenAtItsMeanAndCarriesIt() throws Exception {
        Row r = row(30).atProfile(SPIKE);
        assertTrue(r.open());
        assertEquals(2333.33, r.rate(), 1e-9, "the mean over the hold, to a hundredth");
        assertEquals(SPIKE, r.rateProfile());
        assertEquals("50", r.params().get("ms"));
        assertTrue(r.scenario().contains("open rate=2333.33 cap=10000") && r.scenario().contains("rateProfile=1000@0s,5000@10s,1000@20s"), r.scenario());
        assertEquals(Bounds.openModelRps(4000.0), r.boundRps());
        assertNull(row(30).rateProfile());
        assertNull(row(30).atRate(100).rateProfile());
        assertThrows(IllegalArgumentException.class, () -> row(15).atProfile(SPIKE));
    }

    @Test
    void planContextTurnsEveryRowIntoOneProfileRow() throws Exception {
        PlanContext ctx = PlanContext.from(vtlab.cli.Main.parse(List.of("run", "--rate-profile", "1000@0s,5000@10s,1000@20s")));
        assertTrue(ctx.open());
        assertEquals(List.of(), ctx.rates());
        List<Row> rows = ctx.underLoadModel(List.of(row(30), row(40)));
        assertEquals(2, rows.size());
        assertEquals(70_000 / 30.0, rows.get(0).rate(), 0.01);
        assertEquals(80_000 / 40.0, rows.get(1).rate(), 0.01);
        UsageError e = assertThrows(UsageError.class, () -> ctx.underLoadModel(List.of(row(20))));
        assertTrue(e.getMessage().startsWith("--rate-profile: point 1000@20s is beyond the 20s hold"), e.getMessage());
        assertEquals(1, e.getMessage().lines().count());
        assertTrue(PlanContext.from(vtlab.cli.Main.parse(List.of("run", "--rate-profile", "1000@0s", "--load-model", "open"))).open());
    }

    @Test
    void planContextRefusesAProfileWithRatesOrTheClosedModel() {
        record Bad(List<String> args, String why) {}
        for (Bad b : List.of(new Bad(List.of("--rate-profile", "1000@0s", "--rates", "1000", "--load-model", "open"), "--rate-profile: it replaces --rates"),
                new Bad(List.of("--rate-profile", "1000@0s", "--load-model", "closed"), "--rate-profile: a profile schedules an open-model load"),
                new Bad(List.of("--rate-profile", "1000@0s,500@0s"), "--rate-profile: times go backwards"),
                new Bad(List.of("--rate-profile", "1000@0s", "--conc", "400"), "--conc is the closed model's axis"))) {
            List<String> args = new java.util.ArrayList<>(List.of("run"));
            args.addAll(b.args());
            UsageError e = assertThrows(UsageError.class, () -> PlanContext.from(vtlab.cli.Main.parse(args)), b.args().toString());
            assertTrue(e.getMessage().startsWith(b.why()), e.getMessage());
        }
    }
}
