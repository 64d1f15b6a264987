package vtlab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/** The end-to-end tests' accessors: a figure a row could not produce fails naming the column, the row and why. */
class LabTest {
    static Map<String, String> row(String recovery) {
        Map<String, String> r = new LinkedHashMap<>();
        r.put("scenario", "order-summary rate=100");
        r.put("thread_mode", "platform");
        r.put("recovery_s", recovery);
        r.put("http_reqs", "1400");
        r.put("status", "ok");
        r.put("flags", "");
        r.put("note", "fault row");
        return r;
    }

    @Test
    void aFigureTheRowDidNotProduceFailsNamingTheColumnTheRowAndWhy() {
        assertEquals(3.0, Lab.num(row("3"), "recovery_s"));
        assertEquals(1400, Lab.whole(row("3"), "http_reqs"));
        String which = " | row: scenario=order-summary rate=100, thread_mode=platform, status=ok, note=fault row";
        assertEquals("recovery_s: empty: the row produced no value" + which,
                assertThrows(AssertionFailedError.class, () -> Lab.num(row(""), "recovery_s")).getMessage());
        assertEquals("recovery_s: not a number: 'soon'" + which,
                assertThrows(AssertionFailedError.class, () -> Lab.num(row("soon"), "recovery_s")).getMessage());
        assertEquals("recovery_s: not a whole number: '2.5'" + which,
                assertThrows(AssertionFailedError.class, () -> Lab.whole(row("2.5"), "recovery_s")).getMessage());
        assertEquals("p99_ms: no such column" + which,
                assertThrows(AssertionFailedError.class, () -> Lab.num(row("3"), "p99_ms")).getMessage());
    }
}
