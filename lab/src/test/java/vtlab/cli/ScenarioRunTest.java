package vtlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.experiment.scenario.Scenario;
import vtlab.experiment.scenario.ScenarioExperiment;

/** ./vtlab run FILE.toml: the file as options under the command line's, the mix refused to a generator that cannot send it, init. */
class ScenarioRunTest {
    @TempDir
    Path dir;

    static final String FILE = """
            [service]
            stack = "servlet"
            [load]
            conc = [50, 200]
            hold = "5s"
            [run]
            modes = ["virtual"]
            [[requests]]
            path = "/hello"
            """;

    Path file() throws Exception {
        Path f = dir.resolve("s.toml");
        Files.writeString(f, FILE);
        return f;
    }

    @Test
    void anOptionBesideTheFileOverridesItsKey() throws Exception {
        Scenario sc = Scenario.read(file(), ScenarioExperiment.metrics());
        Options o = ScenarioRun.options(sc, vtlab.cli.Main.parse(List.of("run", "s.toml", "--hold", "9s", "--modes", "platform")));
        assertEquals("9s", o.string("hold", null));
        assertEquals(List.of("platform"), o.all("modes"));
        assertEquals(List.of("50", "200"), o.all("conc"));
        assertEquals("vegeta", o.string("generator", null), "a closed load's mix: vegeta, each request measured apart");
        assertEquals(sc.file().toAbsolutePath().normalize().toString(), o.string("scenario", null));
    }

    /**
     * A file of the open model (an imported access log's) run with --conc beside it: closed, and still vegeta, the
     * generator of a scenario in either model; a threshold naming a request changes nothing (before, it switched a
     * closed load from wrk to vegeta, moving the whole load's numbers beside it); a generator named is kept.
     */
    @Test
    void theGeneratorOfTheWholeNeverDependsOnTheThresholds() throws Exception {
        Path f = dir.resolve("open.toml");
        Files.writeString(f, FILE.replace("conc = [50, 200]", "load-model = \"open\"\nrate-profile = \"100@0s,200@2s\""));
        Scenario sc = Scenario.read(f, ScenarioExperiment.metrics());
        assertEquals("vegeta", ScenarioRun.options(sc, vtlab.cli.Main.parse(List.of())).string("generator", null));
        Options closed = ScenarioRun.options(sc, vtlab.cli.Main.parse(List.of("--conc", "20")));
        assertEquals("vegeta", closed.string("generator", null));
        assertFalse(closed.has("rate-profile"));
        assertEquals("wrk", ScenarioRun.options(sc, vtlab.cli.Main.parse(List.of("--conc", "20", "--generator", "wrk"))).string("generator", null));
        Path named = dir.resolve("named.toml");
        Files.writeString(named, Files.readString(f).replace("[[requests]]\npath = \"/hello\"", "[slo]\nthresholds = [\"p99_ms[virtual, hello] <= 100\"]\n[[requests]]\nname = \"hello\"\npath = \"/hello\""));
        Scenario withThreshold = Scenario.read(named, ScenarioExperiment.metrics());
        for (List<String> beside : List.of(List.<String>of(), List.of("--conc", "20"), List.of("--conc", "20", "--generator", "wrk"))) {
            assertEquals(ScenarioRun.options(sc, vtlab.cli.Main.parse(beside)).string("generator", null),
                    ScenarioRun.options(withThreshold, vtlab.cli.Main.parse(beside)).string("generator", null), "the same generator with and without the threshold " + beside);
        }
        // a file that names wrk keeps it when a threshold names a request
        Path wrk = dir.resolve("wrk.toml");
        Files.writeString(wrk, Files.readString(named).replace("load-model = \"open\"\nrate-profile = \"100@0s,200@2s\"", "conc = [20]\ngenerator = \"wrk\""));
        assertEquals("wrk", ScenarioRun.options(Scenario.read(wrk, ScenarioExperiment.metrics()), vtlab.cli.Main.parse(List.of())).string("generator", null));
    }

    /** wrk named for a mix: the run says once, before it starts, that its requests are not measured apart; vegeta says nothing. */
    @Test
    void wrkForAMixIsSaidNotMeasuredApartOnceUpFront() throws Exception {
        Path f = dir.resolve("mix.toml");
        Files.writeString(f, FILE.replace("[[requests]]\npath = \"/hello\"", "[[requests]]\nname = \"hello\"\npath = \"/hello\"\nweight = 3\n"
                + "[[requests]]\nname = \"bytes\"\npath = \"/bytes?n=100\"\nweight = 1"));
        ByteArrayOutputStream wrk = new ByteArrayOutputStream();
        ScenarioRun.of(Main.parse(List.of("--generator", "wrk")), List.of(f.toString()), new PrintStream(wrk));
        String said = wrk.toString();
        assertEquals(1, said.split("not measured apart", -1).length - 1, said);
        assertTrue(said.startsWith("vtlab: generator wrk sends the mix but its requests are not measured apart"), said);
        ByteArrayOutputStream vegeta = new ByteArrayOutputStream();
        ScenarioRun.of(Main.parse(List.of()), List.of(f.toString()), new PrintStream(vegeta));
        assertFalse(vegeta.toString().contains("not measured apart"), vegeta.toString());
    }

    @Test
    void anOpenLoadsMixGoesToVegeta() throws Exception {
        Scenario sc = Scenario.read(file(), ScenarioExperiment.metrics());
        assertEquals("vegeta", ScenarioRun.options(sc, vtlab.cli.Main.parse(List.of("--load-model", "open", "--rates", "100"))).string("generator", null));
    }

    @Test
    void aGeneratorThatCannotSendTheMixIsRefusedInOneLineBeforeAnythingStarts() throws Exception {
        Path f = file();
        UsageError e = assertThrows(UsageError.class, () -> Main.run(List.of("run", f.toString(), "--generator", "oha"), new PrintStream(new ByteArrayOutputStream())));
        assertEquals(f + ": generator oha cannot send a weighted mix of requests (wrk and vegeta and k6 can: wrk through its Lua request() hook,"
                + " vegeta an attacker per request or, closed, one fed the mix's cycle, k6 through its script); use --generator wrk or vegeta or k6", e.getMessage());
    }

    @Test
    void aBadFileIsRefusedByRunWithItsLine() throws Exception {
        Path f = dir.resolve("bad.toml");
        Files.writeString(f, FILE.replace("hold = \"5s\"", "hold = 5"));
        UsageError e = assertThrows(UsageError.class, () -> Main.run(List.of("run", f.toString()), new PrintStream(new ByteArrayOutputStream())));
        assertEquals(f + ":5: load.hold: must be a string (got a whole number)", e.getMessage());
    }

    @Test
    void initWritesACommentedFileThatReads() throws Exception {
        Path f = dir.resolve("new.toml");
        assertEquals(0, Main.run(List.of("init", "--cmd", "java -jar x.jar", "--out", f.toString()), new PrintStream(new ByteArrayOutputStream())));
        Scenario sc = Scenario.read(f, ScenarioExperiment.metrics());
        assertEquals(List.of("java -jar x.jar"), sc.options().get("cmd"));
        assertTrue(Files.readString(f).contains("# \"p99_ms[virtual] <= 100\","));
        assertThrows(UsageError.class, () -> Main.run(List.of("init", "--cmd", "x", "--out", f.toString()), new PrintStream(new ByteArrayOutputStream())));
    }

    @Test
    void theSavedFileKeepsWhatWasGivenBesideIt() throws Exception {
        Scenario sc = Scenario.read(file(), ScenarioExperiment.metrics());
        Path run = dir.resolve("run");
        ScenarioRun.save(sc, vtlab.cli.Main.parse(List.of("--hold", "9s", "--out", "x", "--port", "1")), run);
        Scenario again = Scenario.read(run.resolve("scenario.toml"), ScenarioExperiment.metrics());
        assertEquals(List.of("9s"), again.options().get("hold"));
        assertEquals(null, again.options().get("out"));
        assertEquals(sc.mix(), again.mix());
    }
}
