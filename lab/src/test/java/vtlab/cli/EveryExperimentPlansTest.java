package vtlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.experiment.registry.Experiments;
import vtlab.plan.Experiment;
import vtlab.plan.Row;
import vtlab.planning.RunPlan;

/**
 * `./vtlab run X` and `./vtlab run X --quick` plan for every experiment the lab registers (issue 29): each is planned
 * as the run plans it (RunPlan.of: its rows, its fault schedules applied, the load model, the generator it needs),
 * which starts nothing; a refusal fails the test with the experiment and the refusal named. The experiments come from
 * the registry, so a new one is planned here without a line of this test.
 */
class EveryExperimentPlansTest {

    /** The run's plan of one experiment: its defaults (plus what it says a user must add: ab's service), --quick or not. */
    static RunPlan plan(Experiment e, boolean quick) throws UsageError {
        List<String> args = new ArrayList<>(List.of("run", e.name()));
        args.addAll(e.example());
        if (quick) args.add("--quick");
        Options o = vtlab.cli.Main.parse(args);
        return RunPlan.of(o, o.positional().subList(1, o.positional().size()));
    }

    static RunPlan planOrFail(Experiment e, boolean quick) {
        String how = "./vtlab run " + e.name() + (e.example().isEmpty() ? "" : " " + String.join(" ", e.example())) + (quick ? " --quick" : "");
        try {
            return plan(e, quick);
        } catch (UsageError x) {
            return fail(e.name() + ": `" + how + "` is refused: " + x.getMessage());
        }
    }

    static long plannedSeconds(RunPlan p) {
        return p.rows().stream().mapToLong(Row::plannedSeconds).sum() + p.studySeconds()
                + p.searches().stream().mapToLong(s -> (long) s.expectedRows() * s.secondsPerRow()).sum();
    }

    @TestFactory
    Stream<DynamicTest> everyExperimentPlansWithItsDefaultsAndWithQuick() {
        assertTrue(Experiments.all().size() > 1, "the registry lists the experiments");
        return Experiments.all().values().stream().map(e -> DynamicTest.dynamicTest(e.name(), () -> {
            RunPlan full = planOrFail(e, false), quick = planOrFail(e, true);
            for (RunPlan p : List.of(full, quick)) {
                assertTrue(!p.rows().isEmpty() || !p.studies().isEmpty() || !p.searches().isEmpty(), e.name() + ": nothing planned");
            }
            // --quick is a smoke run: one rep of every row, and never longer than the defaults
            for (Row r : quick.rows()) assertEquals(1, r.rep(), e.name() + " --quick: " + r.label());
            assertTrue(plannedSeconds(quick) <= plannedSeconds(full),
                    e.name() + ": --quick plans " + plannedSeconds(quick) + " s, the defaults " + plannedSeconds(full) + " s");
            // every schedule inside a row's hold was checked while planning; the rows say so too
            for (Row r : quick.rows()) {
                if (r.rateProfile() != null) r.rateProfile().check(r.hold());
                for (vtlab.tier.fault.Fault f : vtlab.tier.fault.Fault.parse(r.params().get(vtlab.tier.fault.Fault.PARAM))) {
                    assertTrue(f.to().compareTo(r.hold()) <= 0, e.name() + " --quick: " + f + " beyond the " + r.hold() + " hold of " + r.label());
                }
            }
        }));
    }

    /**
     * Every option of a closed set an experiment declares refuses a word outside it as the run plans it (a UsageError:
     * exit code 2 before anything starts), in one line naming the option and its words. Options an experiment takes
     * for another's sake are read only when that one plans: capacity's are its --of experiment's, a scenario's ab's
     * (a jar or a command; the example's service is a lab stack).
     */
    @TestFactory
    Stream<DynamicTest> everyOptionOfAClosedSetRefusesAnyOtherWord() {
        List<DynamicTest> tests = new ArrayList<>();
        List<vtlab.core.Opt> abs = new vtlab.experiment.ab.AbExperiment().options();
        for (Experiment e : Experiments.all().values()) {
            if (e instanceof vtlab.experiment.capacity.CapacityExperiment) continue;
            for (vtlab.core.Opt d : e.options()) {
                if (d.choices().isEmpty() || (e instanceof vtlab.experiment.scenario.ScenarioExperiment && abs.contains(d))) continue;
                tests.add(DynamicTest.dynamicTest(e.name() + " --" + d.name(), () -> {
                    List<String> args = new ArrayList<>(List.of("run", e.name()));
                    args.addAll(e.example());
                    args.addAll(List.of("--" + d.name(), "no-such-word"));
                    Options o = vtlab.cli.Main.parse(args);
                    UsageError x = assertThrows(UsageError.class, () -> RunPlan.of(o, o.positional().subList(1, o.positional().size())));
                    assertEquals("unknown value 'no-such-word' for --" + d.name() + " (choose from " + String.join(", ", d.choices()) + ")", x.getMessage());
                }));
            }
        }
        assertTrue(tests.size() >= 15, tests.size() + " options of a closed set");
        return tests.stream();
    }
}
