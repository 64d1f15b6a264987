package vtlab.experiment.ab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import vtlab.data.DataRow;
import vtlab.plan.Row;

/** --forks auto: forks added, configurations interleaved, until the ratios settle or the budget is spent. */
class AbForksTest {
    static final Instant START = Instant.parse("2026-11-28T12:00:00Z");

    static List<Row> planned(String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("--app", AbExperimentTest.SPRING_JAR, "--url", "/x", "--conc", "200", "--variants", "as-shipped", "--budget", "10m"));
        args.addAll(List.of(more));
        return AbExperimentTest.plan(args.toArray(String[]::new));
    }

    /** A row as matrix.csv holds it: the planned row's identity, its fork and iteration, a throughput, when it started. */
    static Map<String, String> ran(Row r, int fork, int iteration, double rps, long startedS, String status) {
        Map<String, String> m = AbExperimentTest.row(r.threadMode(), "as-shipped", 200, rps, 20, status, "");
        m.put("workload", r.workload());
        m.put("scenario", r.scenario());
        m.put("fork", Integer.toString(fork));
        m.put("iteration", Integer.toString(iteration));
        m.put("ts_iso", START.plusSeconds(startedS).toString());
        return m;
    }

    static Row next(AbForks s, List<Map<String, String>> before, List<Map<String, String>> measured) {
        return s.next(DataRow.numbered(before), measured.stream().map(DataRow::of).toList());
    }

    static AbForks search(List<Row> planned, int iterations, long nowS) {
        return new AbForks(planned, new AbExperiment.Forks(1, iterations, Duration.ofMinutes(10)), 65, () -> START.plusSeconds(nowS).toEpochMilli());
    }

    @Test
    void forksAreAddedInterleavedUntilTheRatioSettles() throws Exception {
        List<Row> planned = planned();
        Row platform = planned.get(0), virtual = planned.get(1);
        List<Map<String, String>> ab = List.of(ran(platform, 1, 1, 1000, 0, "ok"), ran(virtual, 1, 1, 1800, 65, "ok"));
        AbForks s = search(planned, 1, 130);
        Row second = next(s, ab, List.of());
        assertEquals("platform", second.threadMode());
        assertEquals(2, second.fork());
        assertTrue(second.startsFork(), "a fresh JVM");
        List<Map<String, String>> more = new ArrayList<>(List.of(ran(second, 2, 1, 1060, 130, "ok")));
        Row third = next(s, ab, more);
        assertEquals("virtual 2", third.threadMode() + " " + third.fork(), "interleaved: platform, virtual, platform, ...");
        more.add(ran(third, 2, 1, 1880, 195, "ok"));
        String status = s.status(more.stream().map(DataRow::of).toList());
        // a look of a run that adds forks until settled: judged at 97.5%
        assertTrue(status.startsWith("/x c=200: virtual as shipped / platform 1.79× (97.5% CI") && status.endsWith("; --budget 7m50s left"), status);
        assertEquals("platform", next(search(planned, 1, 260), ab, more).threadMode(), "two forks a side: about ±20%, not settled yet");
        // a third fork each, agreeing: at 97.5% within ±10% both ways (about ±7%), settled: no more forks
        more.add(ran(platform, 3, 1, 1030, 260, "ok"));
        more.add(ran(virtual, 3, 1, 1840, 325, "ok"));
        assertNull(next(search(planned, 1, 390), ab, more), "settled");
        // where the third forks disagree, a fourth a side
        List<Map<String, String>> apart = new ArrayList<>(more.subList(0, 2));
        apart.add(ran(platform, 3, 1, 940, 260, "ok"));
        apart.add(ran(virtual, 3, 1, 1990, 325, "ok"));
        Row fourth = next(search(planned, 1, 390), ab, apart);
        assertEquals("platform 4", fourth.threadMode() + " " + fourth.fork(), "three forks a side far apart: past ±10%");
    }

    /** The next fork's cost from the forks already run for its configuration (start to the next row's start), plus 25%. */
    @Test
    void theNextForksCostIsReckonedFromTheForksBefore() throws Exception {
        List<Row> planned = planned();
        Row platform = planned.get(0), virtual = planned.get(1);
        List<Map<String, String>> ab = List.of(ran(platform, 1, 1, 1000, 0, "ok"), ran(virtual, 1, 1, 1800, 65, "ok"),
                ran(platform, 2, 1, 1060, 130, "ok"), ran(virtual, 2, 1, 1300, 210, "ok"));
        AbForks s = search(planned, 1, 290);
        List<DataRow> all = DataRow.numbered(ab);
        // platform's second fork ran from 130 s to virtual's start at 210 s: 80 s, 100 s with the margin
        assertEquals(100, s.nextForkSeconds(all.stream().filter(n -> n.mode().equals("platform")).toList(), all));
        // no later fork yet: the plan's estimate
        assertEquals(65, s.nextForkSeconds(all.subList(0, 1), all));
        // 9m10s gone: 50 s left, less than the 100 s reckoned: none started
        AbForks late = search(planned, 1, 550);
        assertNull(next(late, ab, List.of()));
        assertTrue(late.status(List.of()).endsWith("a fork takes about 100s): not every ratio is settled"), late.status(List.of()));
    }

    @Test
    void aForksIterationsRunBackToBackAndTheBudgetCountsFromTheFirstRow() throws Exception {
        List<Row> planned = planned("--iterations", "2");
        Row platform = planned.get(0), virtual = planned.get(2);
        List<Map<String, String>> ab = List.of(ran(platform, 1, 1, 1000, 0, "ok"), ran(platform, 1, 2, 1400, 40, "ok"),
                ran(virtual, 1, 1, 1000, 70, "ok"), ran(virtual, 1, 2, 1700, 110, "ok"));
        AbForks s = search(planned, 2, 140);
        Row first = next(s, ab, List.of());
        assertEquals("platform 2.1", first.threadMode() + " " + first.fork() + "." + first.iteration());
        Row second = next(s, ab, List.of(ran(first, 2, 1, 1000, 140, "ok")));
        assertEquals("platform 2.2", second.threadMode() + " " + second.fork() + "." + second.iteration(), "its fork's next iteration, in its JVM");
        // 9m20s gone of 10m: a fork of about 65 s does not fit, so none is started though nothing is settled
        AbForks late = search(planned, 2, 560);
        assertNull(next(late, ab, List.of()));
        assertTrue(late.status(List.of()).endsWith("--budget 10m spent (40s left, a fork takes about 65s): not every ratio is settled"), late.status(List.of()));
    }

    /**
     * The search reads the verdict's own rows, the ok ones: flagged forks (a busy machine) settle nothing, so a
     * scenario whose forks are flagged gets more, which may bring ok ones; ok forks that agree beside flagged ones
     * that do not are settled by the ok ones alone (before, the flagged ones could stop it, or keep it going).
     */
    @Test
    void flaggedRowsSettleNothing() throws Exception {
        List<Row> planned = planned();
        Row platform = planned.get(0), virtual = planned.get(1);
        Map<String, String> p = ran(platform, 1, 1, 1000, 0, "flagged"), v = ran(virtual, 1, 1, 1800, 65, "flagged");
        Row next = next(search(planned, 1, 130), List.of(p, v), List.of());
        assertEquals("platform 2", next.threadMode() + " " + next.fork(), "no ok row yet: more forks, which may bring ok ones");
        // two flagged forks a side that agree perfectly: still no ok row, still not settled
        List<Map<String, String>> flagged = List.of(p, v, ran(platform, 2, 1, 1000, 130, "flagged"), ran(virtual, 2, 1, 1800, 195, "flagged"));
        Row third = next(search(planned, 1, 260), flagged, List.of());
        assertEquals("platform 3", third.threadMode() + " " + third.fork());
        // four ok forks a side that agree, beside a flagged pair far apart: settled on the ok ones
        List<Map<String, String>> mixed = new ArrayList<>();
        for (int f = 1; f <= 4; f++) {
            mixed.add(ran(platform, f, 1, 1000 + f, 130L * (f - 1), "ok"));
            mixed.add(ran(virtual, f, 1, 1800 + f, 130L * (f - 1) + 65, "ok"));
        }
        mixed.add(ran(platform, 5, 1, 400, 520, "flagged"));
        mixed.add(ran(virtual, 5, 1, 3000, 585, "flagged"));
        assertNull(next(search(planned, 1, 650), mixed, List.of()), "settled on the ok forks");
    }

    @Test
    void aScenarioWithAFailedForkOrWithoutARatioGetsNoMore() throws Exception {
        List<Row> planned = planned();
        List<Map<String, String>> ab = List.of(ran(planned.get(0), 1, 1, 1000, 0, "ok"), ran(planned.get(1), 1, 1, 0, 65, "failed"));
        assertNull(next(search(planned, 1, 130), ab, List.of()), "the failure is the verdict's: no fork of platform alone settles anything");
        List<Row> platformOnly = planned("--modes", "platform");
        assertNull(next(search(platformOnly, 1, 65), List.of(ran(platformOnly.getFirst(), 1, 1, 1000, 0, "ok")), List.of()), "no ratio to settle");
    }
}
