package vtlab.experiment.ab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;

import vtlab.check.JarLibraries;
import vtlab.data.MachineRecord;
import vtlab.data.RunDir;
import vtlab.data.RunKept;
import vtlab.data.judge.Margin;
import vtlab.data.judge.Spread;
import vtlab.tier.tool.Jdk;

/** ab's entry of kept.json: what is written is what the verdict reads back, typed; a folder before kept.json still reads. */
class AbKeptTest {
    @TempDir
    Path dir;

    static final ServiceLibraries JAR = new ServiceLibraries("/x/orders.jar", List.of(new JarLibraries.Library("org.postgresql", "postgresql", "42.7.8",
            "BOOT-INF/lib/postgresql-42.7.8.jar"), new JarLibraries.Library(null, "guava", "33.0.0-jre", "BOOT-INF/lib/g.jar", "m")), null);

    @Test
    void whatIsWrittenIsReadBack() throws Exception {
        NextStep.Facts facts = new NextStep.Facts(true, true, null, List.of("-Xmx300m"), Map.of("platform", List.of("--server.tomcat.threads.max=50"),
                "virtual", List.of()), List.of("gc:-Dx=1,2"), 4096, JAR.libraries(), 600);
        MachineRecord.NoiseFloor floor = new MachineRecord.NoiseFloor("2026-01-01T00:00:00Z", "r1", "GET /", new Spread(4, 0.02, 0.97, 1.03),
                new Spread(4, 0.05, 0.9, 1.1));
        AbKept written = new AbKept(JAR, facts, new Judging(new Margin(0.1), 0.975, floor), Map.of(25, "25.0.3"));
        write(written.asMap());
        assertEquals(written, AbKept.read(dir));

        // a --cmd service: no jar, so the next step knows no library; no floor measured on this machine
        AbKept command = new AbKept(null, new NextStep.Facts(false, false, "java -jar s.jar", List.of(), Map.of(), List.of(), 1024),
                Judging.DEFAULT, Map.of(25, "25.0.3"));
        write(command.asMap());
        assertEquals(command, AbKept.read(dir));
        assertEquals(List.of("next_step", "judge"), List.copyOf(command.asMap().keySet()), "the file's shape: no jar keys, no noise floor");
    }

    @Test
    void aRunThatKeptNothingIsJudgedByDefault() throws Exception {
        assertEquals(AbKept.NONE, AbKept.read(dir), "no kept.json");
        RunKept.planned(Map.of(), List.of(new Jdk(Path.of("/j21"), 21, "21.0.9", "x"))).write(new RunDir(dir));
        AbKept before = AbKept.read(dir);
        assertNull(before.libraries());
        assertNull(before.nextStep());
        assertEquals(Judging.DEFAULT, before.judging());
        assertEquals(Map.of(21, "21.0.9"), before.jdks(), "the run's JDKs are the run's, whatever ab kept");
        Files.writeString(dir.resolve("kept.json"), "{\"experiments\": {\"ab\": {\"judge\": {\"margin\": 3}, \"next_step\": {\"run\": true}}}}");
        AbKept bad = AbKept.read(dir);
        assertEquals(Judging.DEFAULT, bad.judging(), "a margin out of range is not one");
        assertEquals(true, bad.nextStep().run(), "the rest of the entry is still read");
        Files.writeString(dir.resolve("kept.json"), "{\"experiments\": ");
        assertEquals(AbKept.NONE, AbKept.read(dir), "a torn file");
    }

    /** A run folder written before kept.json: ab's entry and the JDKs as its environment.json held them. */
    @Test
    void aFolderBeforeKeptJsonIsReadFromItsEnvironment() throws Exception {
        AbKept written = new AbKept(JAR, null, Judging.DEFAULT, Map.of(25, "25.0.3"));
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("status", "complete");
        doc.put("jdks", List.of(Map.of("home", "/j25", "major", 25, "version", "25.0.3", "vendor", "x")));
        doc.put("ab", written.asMap());
        new ObjectMapper().writeValue(dir.resolve("environment.json").toFile(), doc);
        assertEquals(written, AbKept.read(dir));
    }

    /** ab's entry in kept.json with the run's one JDK, as the runner writes them. */
    private void write(Map<String, Object> ab) throws Exception {
        RunKept.planned(Map.of(AbExperiment.NAME, ab), List.of(new Jdk(Path.of("/j25"), 25, "25.0.3", "x"))).write(new RunDir(dir));
    }
}
