package vtlab.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import vtlab.core.UsageError;

/** The thread modes a stack declares: parsed, checked against its settings, and refused by name when not declared. */
class ThreadModeTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static Stack parse(String json) throws Exception {
        return Stack.parse(Path.of("stacks/x"), JSON.readTree(json));
    }

    static final String JETTY_LIKE = """
            {"name": "x",
             "modes": {
               "platform": {"threads": "platform", "bound": "pool", "size": "maxThreads"},
               "virtual": {"threads": "virtual", "bound": "pool-before-virtual", "size": "maxThreads"},
               "virtual-pool": {"threads": "virtual", "bound": "virtual-cap", "size": "maxThreads"}},
             "roles": {"requestPool": "maxThreads", "connectionCap": "maxConnections"},
             "settings": {
               "mode": {"env": "THREAD_MODE", "values": ["platform", "virtual", "virtual-pool"]},
               "maxThreads": {"env": "MAX_THREADS", "default": 200},
               "maxConnections": {"env": "MAX_CONNECTIONS", "default": 8192}},
             "workloads": {"hello": {"path": "/hello"}}}
            """;

    @Test
    void eachModeSaysWhatRunsItsRequestsAndWhatBoundsThem() throws Exception {
        Stack s = parse(JETTY_LIKE);
        assertEquals(List.of("platform", "virtual", "virtual-pool"), List.copyOf(s.modes().keySet()));
        Settings values = s.configure("virtual-pool", "hello", Settings.NONE.with("maxThreads", "300"), 25).values();
        ThreadMode.RequestBound b = s.threadMode("virtual-pool").bound(values);
        assertEquals(300, b.cap());
        assertEquals("at most 300 virtual threads", b.describe());
        assertNull(s.threadMode("virtual").bound(values).cap(), "a pool in front of virtual threads does not bound the requests");
        assertTrue(s.threadMode("virtual").threads().virtual());
        assertEquals("maxThreads", s.role(Stack.REQUEST_POOL));
        assertEquals("maxConnections", s.role(Stack.CONNECTION_CAP));
    }

    @Test
    void aModeTheStackDoesNotDeclareIsRefusedNamingThoseItHas() throws Exception {
        Stack s = parse("""
                {"name": "x", "modes": {"virtual": {"threads": "virtual", "bound": "none"}},
                 "settings": {"mode": {"env": "M", "values": ["virtual"]}}, "workloads": {"hello": {"path": "/hello"}}}
                """);
        UsageError e = assertThrows(UsageError.class, () -> s.threadMode("platform"));
        assertEquals("stack x has no thread mode 'platform' (it has virtual)", e.getMessage());
    }

    @Test
    void modesMustMatchTheModeSettingAndNameRealSettings() {
        assertThrows(IllegalArgumentException.class, () -> parse(JETTY_LIKE.replace("\"virtual-pool\"]", "\"other\"]")));
        assertThrows(IllegalArgumentException.class, () -> parse(JETTY_LIKE.replace("\"bound\": \"pool\", \"size\": \"maxThreads\"", "\"bound\": \"pool\", \"size\": \"poolSize\"")));
        assertThrows(IllegalArgumentException.class, () -> parse(JETTY_LIKE.replace("\"bound\": \"pool\",", "\"bound\": \"queue\",")));
        assertThrows(IllegalArgumentException.class, () -> parse(JETTY_LIKE.replace("\"connectionCap\": \"maxConnections\"", "\"connectionCap\": \"acceptCount\"")));
    }

    @Test
    void aStackWithoutDeclarationReadsItsModesValuesAsWords() throws Exception {
        Stack s = parse("""
                {"name": "y", "settings": {"mode": {"env": "M", "values": ["platform", "virtual"]}, "maxThreads": {"env": "T", "default": 50}},
                 "workloads": {"hello": {"path": "/hello"}}}
                """);
        assertEquals(50, s.threadMode("platform").bound(s.configure("platform", "hello", Settings.NONE, 25).values()).cap());
        assertEquals(ThreadMode.Bound.NONE, s.threadMode("virtual").bound());
    }

    @Test
    void everyStackOfTheLabWithThreadModesDeclaresThem() throws Exception {
        int declared = 0;
        for (Stack s : Stack.all().values()) {
            var raw = JSON.readTree(s.dir().resolve("stack.json").toFile());
            if (!raw.path("settings").has(Stack.MODE)) continue;
            assertTrue(raw.has("modes"), s.name() + " has a mode setting but declares no \"modes\"");
            declared++;
            assertTrue(s.modes().values().stream().noneMatch(m -> m.bound().boundsRequests && m.size() == null),
                    s.name() + ": a bound that caps the requests names its size");
        }
        assertTrue(declared >= 3, "servlet, spring-mvc and webflux at least: " + declared);
    }
}
