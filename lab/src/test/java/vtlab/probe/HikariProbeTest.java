package vtlab.probe;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

class HikariProbeTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void idleMeansNoConnectionOutAndNobodyWaiting() throws Exception {
        assertTrue(HikariProbe.idle(JSON.readTree("{\"active\":0,\"idle\":50,\"pending\":0,\"active_max\":50}")));
        // the state the runner's drain used to miss: runtime-info answers, yet requests still queue on the pool
        assertFalse(HikariProbe.idle(JSON.readTree("{\"active\":50,\"idle\":0,\"pending\":1745}")));
        assertFalse(HikariProbe.idle(JSON.readTree("{\"active\":0,\"pending\":3}")));
        assertFalse(HikariProbe.idle(JSON.readTree("{\"active\":2,\"pending\":0}")));
        assertFalse(HikariProbe.idle(JSON.readTree("{\"total\":50}")), "no counts is no proof");
    }
}
