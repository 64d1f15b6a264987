package vtlab.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

class OptionsTest {
    @Test
    void readsEveryForm() throws Exception {
        Options o = Options.parse(List.of("run", "servlet", "--conc=400,1_000", "--hold", "2m", "--quick", "--jdk", "21", "--jdk", "25"), java.util.Set.of("quick"));
        assertEquals(List.of("run", "servlet"), o.positional());
        assertEquals(List.of(400, 1000), o.positiveInts("conc", List.of()));
        assertEquals(Duration.ofMinutes(2), o.duration("hold", Duration.ZERO, false));
        assertEquals(Duration.ofMillis(500), Options.parse(List.of("--warmup", "500ms")).duration("warmup", Duration.ZERO, true));
        assertEquals(true, o.flag("quick"));
        assertEquals(List.of("21", "25"), o.all("jdk"));
        assertEquals(List.of(), o.unknown(java.util.Set.of("conc", "hold", "quick", "jdk")));
    }

    @Test
    void reportsOptionsNobodyAskedFor() throws Exception {
        Options o = Options.parse(List.of("--conc", "1", "--typo", "x"));
        o.positiveInts("conc", List.of());
        assertEquals(List.of("typo"), o.unknown(java.util.Set.of("conc")), "reading an option declares nothing");
        Options demo = o.withDefaults(java.util.Map.of("hold", "15s", "conc", "9"));
        assertEquals(List.of(1), demo.positiveInts("conc", List.of()), "given wins over a default");
        assertEquals(Duration.ofSeconds(15), demo.duration("hold", Duration.ZERO, false));
        assertEquals(java.util.Set.of("conc", "typo"), o.asMap().keySet(), "defaults never enter the given options");
    }

    /** An option of a closed set takes only its words (each of a comma list), refuses any other in one line, and its help lists them. */
    @Test
    void anOptionWithChoicesTakesOnlyThem() throws Exception {
        Opt modes = Opt.of("modes", "platform,virtual", "thread mode").withChoices(List.of("platform", "virtual"));
        assertEquals(List.of("virtual"), modes.chosen(Options.parse(List.of("--modes", "virtual"))));
        assertEquals(List.of("platform", "virtual"), modes.chosen(Options.parse(List.of())), "the default");
        assertEquals("platform", modes.choice(Options.parse(List.of("--modes", "virtual", "--modes", "platform"))), "the last given wins");
        UsageError e = assertThrows(UsageError.class, () -> modes.chosen(Options.parse(List.of("--modes", "virtual,green"))));
        assertEquals("unknown value 'green' for --modes (choose from platform, virtual)", e.getMessage(), "each word of a list is one of them");
        assertEquals("virtual", modes.check("virtual"));
        assertEquals(e.getMessage().replace("green", "platform,virtual"), assertThrows(UsageError.class, () -> modes.check("platform,virtual")).getMessage(),
                "a word handed over is one word");
        assertEquals("choices: platform, virtual", modes.lines().getLast().strip(), String.join("\n", modes.lines()));
        Opt any = Opt.of("modes", "platform,virtual", "thread mode");
        assertTrue(any.lines().stream().noneMatch(l -> l.contains("choices")), "no choices, no line of them");
        assertThrows(IllegalStateException.class, () -> any.chosen(Options.parse(List.of())), "an option of any value has no choice to read");
    }

    @Test
    void refusesAnOptionWithoutItsValue() {
        assertThrows(UsageError.class, () -> Options.parse(List.of("--conc")));
    }
}
