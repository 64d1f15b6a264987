package vtlab.data;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.core.Options;
import vtlab.proc.CoreMap;

class EnvironmentTest {
    @TempDir
    Path dir;

    /** ./vtlab ab --env DB_PASSWORD=... --header "Authorization: ...": the service gets them, environment.json does not. */
    @Test
    void environmentJsonHoldsNoSecret() throws Exception {
        List<String> args = List.of("ab", "--env", "DB_PASSWORD=hunter2", "--env", "DB_URL=jdbc:x", "--header", "Authorization: Bearer abc");
        Options o = vtlab.cli.Main.parse(args);
        Environment env = new Environment(args, o.asMap(), CoreMap.compute(2, vtlab.cli.Main.parse(List.of())), List.of(), "wrk", "wrk 4", List.of(), 1);
        Path f = dir.resolve("environment.json");
        env.write(f);
        String json = Files.readString(f);
        assertFalse(json.contains("hunter2") || json.contains("Bearer abc"), json);
        assertTrue(json.contains("DB_PASSWORD=***") && json.contains("Authorization: ***") && json.contains("DB_URL=jdbc:x"), json);
    }
}
