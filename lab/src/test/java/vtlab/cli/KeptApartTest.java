package vtlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import vtlab.core.Options;

/** An experiment's entry is planned into kept.json, which the lab reads back; environment.json, for people, carries none. */
class KeptApartTest {
    static final String SPRING_JAR = Path.of(System.getProperty("vtlab.home", "..")).toAbsolutePath()
            .resolve("stacks/spring-mvc/target/vtlab-spring-mvc.jar").toString();

    @Test
    void abEntryIsKeptApartFromTheEnvironment(@TempDir Path dir) throws Exception {
        Options o = Main.parse(List.of("run", "ab", "--app", SPRING_JAR, "--url", "/", "--port", Integer.toString(vtlab.proc.LoopbackPort.free())));
        RunCommand.Prepared p = RunCommand.prepare(o, List.of("ab"));
        assertEquals(List.of("ab"), List.copyOf(p.plan().kept().keySet()));
        Path env = dir.resolve("environment.json");
        p.environment(List.of("run", "ab")).write(env);
        JsonNode doc = new ObjectMapper().readTree(env.toFile());
        assertTrue(doc.path("ab").isMissingNode(), "no experiment's entry in environment.json: " + doc);
        assertEquals("running", doc.path("status").asText(), "the status line stays, for people");
    }
}
