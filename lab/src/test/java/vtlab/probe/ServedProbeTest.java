package vtlab.probe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;

/** What ran the SUT's requests, from its runtime-info, and the probe beside every set. */
class ServedProbeTest {
    @Test
    void runtimeInfosCountByKindOfThreadOrNothing() throws Exception {
        ObjectMapper json = new ObjectMapper();
        assertArrayEquals(new long[] {3, 1200}, ServedProbe.counts(json.readTree("{\"requests_by_thread\": {\"platform\": 3, \"virtual\": 1200}}")));
        assertNull(ServedProbe.counts(json.readTree("{\"thread_mode\": \"virtual\"}")), "a stack that does not count");
        assertNull(ServedProbe.counts(json.readTree("{\"requests_by_thread\": {\"virtual\": 5}}")), "half a count is none");
    }

    @Test
    void itIsAddedOnceBesideAnySet() {
        assertEquals(List.of("cpu", ServedProbe.NAME), ServedProbe.with(List.of("cpu")));
        assertEquals(List.of(ServedProbe.NAME, "cpu"), ServedProbe.with(List.of(ServedProbe.NAME, "cpu")));
    }
}
