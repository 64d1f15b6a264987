package vtlab.sut.springmvc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

class SettingsTest {
    @Test
    void defaultsAreTheRigs() {
        Settings s = Settings.fromEnv(Map.of());
        assertEquals("released", s.connMode());
        assertEquals("normal", s.pathMode());
        assertEquals(100, s.downstreamDelayMs());
        assertEquals("jdk", s.downstreamClient());
        assertFalse(s.held());
        assertFalse(s.synchronizedPath());
        assertEquals(0, s.concurrencyLimit(), "no limit unless asked");
    }

    @Test
    void readsTheSwitchesAndTrimsTheStubUrl() {
        Settings s = Settings.fromEnv(Map.of("CONN_MODE", "held", "PATH_MODE", "synchronized", "STUB_URL", "http://127.0.0.1:9/",
                "DOWNSTREAM_DELAY_MS", "250", "SYNC_STRIPES", "8", "DOWNSTREAM_CLIENT", "urlconnection"));
        assertTrue(s.held());
        assertTrue(s.synchronizedPath());
        assertEquals("http://127.0.0.1:9", s.stubUrl());
        assertEquals(250, s.downstreamDelayMs());
        assertEquals(8, s.syncStripes());
        assertEquals("urlconnection", s.downstreamClient());
    }

    @Test
    void refusesUnknownValuesInsteadOfFallingBack() {
        assertThrows(IllegalArgumentException.class, () -> Settings.fromEnv(Map.of("CONN_MODE", "Held")));
        assertThrows(IllegalArgumentException.class, () -> Settings.fromEnv(Map.of("PATH_MODE", "sync")));
        assertThrows(IllegalArgumentException.class, () -> Settings.fromEnv(Map.of("SYNC_STRIPES", "0")));
        assertThrows(IllegalArgumentException.class, () -> Settings.fromEnv(Map.of("DOWNSTREAM_CLIENT", "apache")));
        assertThrows(IllegalArgumentException.class, () -> Settings.fromEnv(Map.of("DOWNSTREAM_HTTP", "h2")));
        assertThrows(IllegalArgumentException.class, () -> Settings.fromEnv(Map.of("DOWNSTREAM_HTTP", "h2c", "DOWNSTREAM_CLIENT", "urlconnection")));
        assertEquals("h2c", Settings.fromEnv(Map.of("DOWNSTREAM_HTTP", "h2c")).downstreamHttp());
        assertThrows(IllegalArgumentException.class, () -> Settings.fromEnv(Map.of("CONCURRENCY_LIMIT", "-1")));
        assertEquals(200, Settings.fromEnv(Map.of("CONCURRENCY_LIMIT", "200")).concurrencyLimit());
    }

    @Test
    void bothDownstreamLibrariesReportNoCapOnCallsInFlight() {
        for (String client : new String[] {"jdk", "urlconnection"}) {
            Map<String, Object> d = new DownstreamClient(Settings.fromEnv(Map.of("DOWNSTREAM_CLIENT", client))).describe();
            assertEquals("unbounded", d.get("downstream_max_connections"));
            assertEquals(false, d.get("apache_httpclient_on_classpath"), "Apache HttpClient would cap at 5 per route");
            assertEquals(false, d.get("reactor_netty_on_classpath"), "Reactor Netty would bring its own pool");
            assertEquals("http://127.0.0.1:8081/delay?ms=100", d.get("downstream_url"));
        }
    }
}
