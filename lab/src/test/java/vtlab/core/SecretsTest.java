package vtlab.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** Secret-looking settings and credentials are passed on as given and written masked. */
class SecretsTest {
    @Test
    void keysThatLookSecretInAnyCase() {
        for (String k : List.of("SPRING_DATASOURCE_PASSWORD", "db_password", "ClientSecret", "GITHUB_TOKEN", "API_KEY", "aws_credentials")) {
            assertTrue(Secrets.secretKey(k), k);
        }
        for (String k : List.of("SPRING_DATASOURCE_URL", "PATH_MODE", "THREAD_MODE", "USER")) assertFalse(Secrets.secretKey(k), k);
        for (String h : List.of("Authorization", "cookie", "Proxy-Authorization", "X-Api-Key", "X-Auth-Token")) assertTrue(Secrets.secretHeader(h), h);
        assertFalse(Secrets.secretHeader("Content-Type"));
    }

    @Test
    void theCommandLineAndOptionsAreWrittenMasked() {
        List<String> args = List.of("ab", "--env", "DB_PASSWORD=hunter2", "--env=DB_URL=jdbc:x", "--virtual-env", "API_TOKEN=t0k",
                "--header", "Authorization: Bearer abc", "--header=Cookie: sid=1", "--header", "X-Trace: 7", "--url", "/x");
        assertEquals(List.of("ab", "--env", "DB_PASSWORD=***", "--env=DB_URL=jdbc:x", "--virtual-env", "API_TOKEN=***",
                "--header", "Authorization: ***", "--header=Cookie: ***", "--header", "X-Trace: 7", "--url", "/x"), Secrets.commandLine(args));
        Map<String, List<String>> options = new LinkedHashMap<>();
        options.put("env", List.of("DB_PASSWORD=hunter2", "DB_URL=jdbc:x"));
        options.put("header", List.of("authorization:Basic xyz"));
        options.put("url", List.of("/x"));
        assertEquals(Map.of("env", List.of("DB_PASSWORD=***", "DB_URL=jdbc:x"), "header", List.of("authorization: ***"), "url", List.of("/x")),
                Secrets.options(options));
        assertEquals(Map.of("A_KEY", "***", "B", "2"), Secrets.env(Map.of("A_KEY", "1", "B", "2")));
    }

    @Test
    void argumentListsAreWrittenMasked() {
        // what a user puts in --platform-args / --virtual-args / --jvm-args for their own service
        assertEquals("-Xmx1g -Dspring.datasource.password=*** --app.api-token=*** --server.port=8080 --db-password *** --verbose",
                Secrets.argsLine(" -Xmx1g -Dspring.datasource.password=hunter2 --app.api-token=t0k --server.port=8080 --db-password hunter2 --verbose"));
        assertEquals(List.of("ab", "--platform-args", "--spring.datasource.password=*** --x=1", "--jvm-args=-Dsecret=***"),
                Secrets.commandLine(List.of("ab", "--platform-args", "--spring.datasource.password=pw --x=1", "--jvm-args=-Dsecret=s")));
        assertEquals(Map.of("virtual-args", List.of("--token=***")), Secrets.options(Map.of("virtual-args", List.of("--token=abc"))));
        // a SUT's command line as its log's first line: the secret gone, everything else as launched
        assertEquals(List.of("taskset", "-c", "0", "java", "-Xmx512m", "-jar", "app.jar", "--db.password=***"),
                Secrets.args(List.of("taskset", "-c", "0", "java", "-Xmx512m", "-jar", "app.jar", "--db.password=pw")));
    }
}
