package vtlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.experiment.registry.Experiments;
import vtlab.plan.Experiment;
import vtlab.plan.Row;
import vtlab.planning.GeneratorChoice;

/** The run's generator, chosen alone: each load model's default, the experiment's own, --generator, and what is refused. */
class ChooseGeneratorTest {
    static String chosen(List<String> args, String experiment, List<Row> rows, boolean open, boolean runProfile) throws UsageError {
        List<Experiment> e = experiment == null ? List.of() : List.of(Experiments.byName(experiment));
        return GeneratorChoice.choose(vtlab.cli.Main.parse(args), e, rows, open, runProfile).name();
    }

    @Test
    void eachLoadModelHasItsDefaultAndAnExperimentItsOwn() throws Exception {
        assertEquals("wrk", chosen(List.of(), null, List.of(), false, false), "closed: the seeds' numbers");
        assertEquals("oha", chosen(List.of(), null, List.of(), true, false), "open: latency from the intended send time");
        assertEquals("vegeta", chosen(List.of(), "faults", List.of(), true, false), "faults names vegeta (its per-request results, errors by kind)");
        assertEquals("vegeta", chosen(List.of(), "containers", List.of(), true, false), "containers too");
        assertEquals("k6", chosen(List.of("--generator", "k6"), "faults", List.of(), true, false), "k6 when asked for (opt-in)");
        assertEquals("hey", chosen(List.of("--generator", "hey"), null, List.of(), false, false));
    }

    /** docs/setup.md's licence table names as each load model's default the generator chosen here, no other. */
    @Test
    void theLicenceTableNamesTheDefaultsChosenHere() throws Exception {
        List<String> rows = java.nio.file.Files.readAllLines(java.nio.file.Path.of(System.getProperty("vtlab.home", ".."), "docs/setup.md")).stream()
                .filter(l -> l.startsWith("| `")).toList();
        assertEquals(List.of(chosen(List.of(), null, List.of(), true, false)), toolsSaying(rows, "the open model's default"));
        assertEquals(List.of(chosen(List.of(), null, List.of(), false, false)), toolsSaying(rows, "closed-model load (the default generator)"));
    }

    /** The tools (first cell) of the table rows whose use (third cell) says this. */
    static List<String> toolsSaying(List<String> rows, String words) {
        return rows.stream().map(l -> l.split("\\|")).filter(c -> c.length > 3 && c[3].contains(words))
                .map(c -> c[1].strip().replace("`", "")).toList();
    }

    @Test
    void aGeneratorThatCannotSendTheRowsLoadIsRefusedInOneLine() {
        UsageError closedOnly = assertThrows(UsageError.class, () -> chosen(List.of("--generator", "wrk"), null, List.of(), true, false));
        assertTrue(closedOnly.getMessage().startsWith("wrk runs closed-model load only; "), closedOnly.getMessage());
        UsageError openOnly = assertThrows(UsageError.class, () -> chosen(List.of("--generator", "oha"), null, List.of(), false, false));
        assertTrue(openOnly.getMessage().startsWith("oha runs open-model load only here"), openOnly.getMessage());
        assertTrue(!closedOnly.getMessage().contains("\n") && !openOnly.getMessage().contains("\n"));
    }
}
