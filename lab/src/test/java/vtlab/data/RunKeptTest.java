package vtlab.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import vtlab.tier.tool.Jdk;

/** kept.json: what is written is what is read back, typed; a folder written before it reads from its environment.json. */
class RunKeptTest {
    static final ObjectMapper JSON = new ObjectMapper();
    @TempDir
    Path dir;

    @Test
    void whatIsWrittenIsReadBack() throws Exception {
        RunDir run = new RunDir(dir);
        Map<String, Object> ab = new LinkedHashMap<>();
        ab.put("jar", "/x/orders.jar");
        ab.put("next_step", Map.of("run", true, "levers", List.of("gc:-Dx=1,2")));
        ab.put("judge", Map.of("margin", 0.05, "level", 0.975));
        RunKept planned = RunKept.planned(Map.of("ab", ab), List.of(new Jdk(Path.of("/j25"), 25, "25.0.3", "x"), new Jdk(Path.of("/j21"), 21, "21.0.9", "y"),
                new Jdk(Path.of("/jx"), 26, "", "z")));
        planned.write(run);
        RunKept read = RunKept.read(run);
        assertEquals(planned, read);
        assertEquals(RunKept.Status.RUNNING, read.status().state(), "as the run starts");
        assertTrue(read.status().unfinished());
        assertEquals(Map.of(25, "25.0.3", 21, "21.0.9"), read.jdks(), "a JDK whose version is not known is left out");
        assertEquals(0.975, read.experiment("ab").path("judge").path("level").asDouble());
        assertTrue(read.experiment("scenario").isMissingNode(), "an experiment that kept nothing");

        // as the run ends: stopped by a lost host, a study failed
        RunKept ended = planned.with(planned.status().stoppedEarly("root@10.77.0.13 (load) does not answer", 2)
                .studyFailed("jmh", "java.io.IOException: fork failed").ended(RunKept.Status.STOPPED));
        ended.write(run);
        assertEquals(ended, RunKept.read(run));
        assertEquals(new RunKept.Status("stopped", "root@10.77.0.13 (load) does not answer", 2, Map.of("jmh", "java.io.IOException: fork failed")),
                RunKept.read(run).status());
        assertFalse(RunKept.read(run).status().unfinished());
        try (var files = Files.list(dir)) {
            assertEquals(List.of("kept.json"), files.map(f -> f.getFileName().toString()).toList(), "no temporary file is left");
        }
    }

    @Test
    void aFolderThatKeptNothingOrATornFileReadsAsNone() throws Exception {
        RunDir run = new RunDir(dir);
        assertEquals(RunKept.NONE, RunKept.read(run), "neither file");
        Files.writeString(run.kept(), "{\"status\": ");
        assertEquals(RunKept.NONE, RunKept.read(run), "a torn file");
        Files.writeString(run.kept(), "");
        assertEquals(RunKept.NONE, RunKept.read(run), "an empty file");
        assertFalse(RunKept.NONE.status().unfinished(), "no status is not a run cut short");
    }

    /** kept.json is what the lab reads, whatever environment.json says beside it. */
    @Test
    void keptJsonIsReadBeforeTheEnvironment() throws Exception {
        RunDir run = new RunDir(dir);
        JSON.writeValue(run.environmentJson().toFile(), Map.of("status", "complete", "ab", Map.of("jar", "/old.jar")));
        RunKept kept = RunKept.planned(Map.of(), List.of()).with(RunKept.Status.STARTED.ended(RunKept.Status.INCOMPLETE));
        kept.write(run);
        assertEquals(kept, RunKept.read(run));
        assertTrue(RunKept.read(run).experiment("ab").isMissingNode());
    }

    /** The reader of a folder written before kept.json: the status lines, the JDKs and each entry as its environment.json held them. */
    @Test
    void aFolderBeforeKeptJsonIsReadFromItsEnvironment() throws Exception {
        RunDir run = new RunDir(dir);
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("status", "stopped");
        env.put("command", "./vtlab run ab --app /x/orders.jar");
        env.put("options", Map.of("app", List.of("/x/orders.jar")));
        env.put("jdks", List.of(Map.of("home", "/j25", "major", 25, "version", "25.0.3", "vendor", "x"), Map.of("home", "/j", "major", 0)));
        env.put("ab", Map.of("jar", "/x/orders.jar", "judge", Map.of("margin", 0.1)));
        env.put("rows_failed", 1);
        env.put("stopped", "root@10.77.0.13 (load) does not answer");
        env.put("rows_not_run", 3);
        env.put("failed_jmh", "java.io.IOException: fork failed");
        JSON.writeValue(run.environmentJson().toFile(), env);

        RunKept old = RunKept.read(run);
        assertEquals(new RunKept.Status("stopped", "root@10.77.0.13 (load) does not answer", 3, Map.of("jmh", "java.io.IOException: fork failed")),
                old.status());
        assertEquals(Map.of(25, "25.0.3"), old.jdks());
        JsonNode ab = old.experiment("ab");
        assertEquals("/x/orders.jar", ab.path("jar").asText());
        assertEquals(0.1, ab.path("judge").path("margin").asDouble());
        assertTrue(old.experiment("scenario").isMissingNode());

        JSON.writeValue(run.environmentJson().toFile(), Map.of("cpus", 2));
        RunKept bare = RunKept.read(run);
        assertEquals("", bare.status().state(), "an environment without a status line");
        assertEquals(Map.of(), bare.jdks());
    }
}
