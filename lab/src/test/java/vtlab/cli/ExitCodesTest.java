package vtlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ExitCodesTest {
    @Test
    void aRunSaysWhatHappenedInItsCode() {
        assertEquals(0, ExitCodes.ofRun(true, 0, false));
        assertEquals(1, ExitCodes.ofRun(true, 2, false));
        assertEquals(99, ExitCodes.ofRun(true, 0, true));
        assertEquals(1, ExitCodes.ofRun(true, 1, true), "failed rows win over breached thresholds");
        assertEquals(130, ExitCodes.ofRun(false, 1, true));
    }
}
