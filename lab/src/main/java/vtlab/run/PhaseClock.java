package vtlab.run;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

import vtlab.data.Column;
import vtlab.data.RowValues;

/**
 * Where a row's wall time went, by phase, from the steps it reports: the fixed cost around the hold (start, verify,
 * warm-up, the JIT's catch-up, the thread-mode proof, drains, the probes after the hold, the profiled hold) is what
 * makes a short row long, and what a user waits for; measured here rather than guessed. Its phases are the names of
 * {@link RowRunner}'s {@link Phase}s, and within the warm-up its JIT catch-up and thread-mode proof.
 */
final class PhaseClock implements RowRunner.Steps {
    static final Column PHASES = Column.text("row_phases_s",
            "the row's wall time by phase in s (start, verify, warm-up, jit-catch-up, mode-proof, drain, hold, probes, profiled-hold, stop)");
    static final Column ROW_S = Column.number("row_s", "s", "the row's wall time, from its first step (its SUT started or reused) to its end");
    static final Column READY_S = Column.number("ready_s", "s",
            "a fresh fork's start and warm-up: from its SUT's start to its first hold (start, verify, warm-up, jit-catch-up, mode-proof, drain); empty for a reused JVM");
    static final List<Column> COLUMNS = List.of(ROW_S, PHASES, READY_S);
    /** The phases before a fork's first hold: what a fork costs before it measures anything. */
    private static final List<String> READY = List.of("start", "verify", "warm-up", "jit-catch-up", "mode-proof", "drain");

    private final RowRunner.Steps shown;
    private final LongSupplier nanos;
    private final long started;
    private final Map<String, Long> spent = new LinkedHashMap<>();
    private String current;
    private long since;

    PhaseClock(RowRunner.Steps shown) {
        this(shown, System::nanoTime);
    }

    PhaseClock(RowRunner.Steps shown, LongSupplier nanos) {
        this.shown = shown;
        this.nanos = nanos;
        this.started = nanos.getAsLong();
        this.since = started;
    }

    @Override
    public void step(String what) {
        shown.step(what);
        enter(phase(what));
    }

    /** A phase the progress line does not show (e.g. reading the probes after the hold). */
    void enter(String phase) {
        long now = nanos.getAsLong();
        if (current != null) spent.merge(current, now - since, Long::sum);
        current = phase;
        since = now;
    }

    /** The phase a progress step belongs to: the words before its first number or colon, named for the table. */
    static String phase(String what) {
        if (what.contains("JIT catch up")) return "jit-catch-up";
        if (what.contains("prove the thread mode")) return "mode-proof";
        if (what.contains("did not go idle")) return "drain";
        String head = what.split("[:0-9]", 2)[0].trim();
        return switch (head) {
            case "starting SUT" -> "start";
            case "verifying" -> "verify";
            case "warming up" -> "warm-up";
            case "draining" -> "drain";
            case "measuring" -> "hold";
            case "profiling" -> "profiled-hold";
            case "stopping SUT" -> "stop";
            default -> head.isEmpty() ? "other" : head.replace(' ', '-');
        };
    }

    /** Closes the current phase and writes the row's wall time and its phases (largest first). */
    void into(RowValues out) {
        enter(null);
        double total = (nanos.getAsLong() - started) / 1e9;
        out.put(ROW_S, Math.round(total * 10) / 10.0);
        if (spent.containsKey("start")) {
            double ready = READY.stream().mapToLong(p -> spent.getOrDefault(p, 0L)).sum() / 1e9;
            out.put(READY_S, Math.round(ready * 10) / 10.0);
        }
        out.put(PHASES, spent.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .map(e -> e.getKey() + " " + String.format(Locale.ROOT, "%.1f", e.getValue() / 1e9))
                .collect(Collectors.joining(";")));
    }
}
