package vtlab.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

class OptionsTest {
    @Test
    void readsEveryForm() throws Exception {
        Options o = Options.parse(List.of("run", "servlet", "--conc=400,1_000", "--hold", "2m", "--quick", "--jdk", "21", "--jdk", "25"));
        assertEquals(List.of("run", "servlet"), o.positional());
        assertEquals(List.of(400, 1000), o.positiveInts("conc", List.of()));
        assertEquals(Duration.ofMinutes(2), o.duration("hold", Duration.ZERO, false));
        assertEquals(Duration.ofMillis(500), Options.parse(List.of("--warmup", "500ms")).duration("warmup", Duration.ZERO, true));
        assertEquals(true, o.flag("quick"));
        assertEquals(List.of("21", "25"), o.all("jdk"));
        assertEquals(List.of(), o.unread());
    }

    @Test
    void reportsOptionsNobodyAskedFor() throws Exception {
        Options o = Options.parse(List.of("--conc", "1", "--typo", "x"));
        o.positiveInts("conc", List.of());
        assertEquals(List.of("typo"), o.unread());
    }

    @Test
    void refusesAnOptionWithoutItsValue() {
        assertThrows(UsageError.class, () -> Options.parse(List.of("--conc")));
    }
}
