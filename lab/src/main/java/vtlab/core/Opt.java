package vtlab.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A declared option: its name, its default as typed on the command line, the default under --quick if another, and
 * one line of help. The value is read through the declaration, so the help shown is the default the code uses; the
 * declarations of the chosen experiments (plus the global ones) are what makes any other option unknown.
 *
 * @param dflt null: no default (the experiment decides, e.g. "overrides the variants' connections")
 */
public record Opt(String name, String dflt, String quickDflt, String help) {
    /** Column where the help starts in `vtlab list`. */
    static final int HELP_COLUMN = 33;

    public static Opt of(String name, String dflt, String help) {
        return new Opt(name, dflt, null, help);
    }

    public Opt quick(String q) {
        return new Opt(name, dflt, q, help);
    }

    /** The same option with help saying what it means to one experiment (e.g. pinning's --conc). */
    public Opt withHelp(String h) {
        return new Opt(name, dflt, quickDflt, h);
    }

    public Opt withDefault(String d) {
        return new Opt(name, d, quickDflt, help);
    }

    /** The options with this one's default standing in when it was not given. */
    private Options effective(Options o) throws UsageError {
        String d = quickDflt != null && o.flag("quick") ? quickDflt : dflt;
        return d == null ? o : o.withDefaults(Map.of(name, d));
    }

    public boolean given(Options o) {
        return o.has(name);
    }

    public List<Integer> ints(Options o) throws UsageError {
        return effective(o).positiveInts(name, List.of());
    }

    public int integer(Options o) throws UsageError {
        return effective(o).positiveInt(name, 0);
    }

    public List<String> choices(Options o, List<String> allowed) throws UsageError {
        return effective(o).choices(name, allowed, List.of());
    }

    /** A single word from allowed (the last given wins). */
    public String choice(Options o, List<String> allowed) throws UsageError {
        return choices(o, allowed).getLast();
    }

    public List<String> list(Options o) throws UsageError {
        return effective(o).all(name);
    }

    public String string(Options o) throws UsageError {
        return effective(o).string(name, null);
    }

    public Duration duration(Options o, boolean allowZero) throws UsageError {
        return effective(o).duration(name, null, allowZero);
    }

    /** `vtlab list` lines: "--name default" then the help; a help with line breaks continues under itself. */
    public List<String> lines() {
        String head = "--" + name + (dflt == null ? "" : " " + dflt);
        String[] h = (help + (quickDflt == null ? "" : " (--quick: " + quickDflt + ")")).split("\n");
        List<String> out = new ArrayList<>();
        out.add(head.length() >= HELP_COLUMN ? head + "   " + h[0] : String.format("%-" + HELP_COLUMN + "s%s", head, h[0]));
        for (int i = 1; i < h.length; i++) out.add(" ".repeat(HELP_COLUMN) + h[i]);
        return out;
    }

    public static List<String> render(List<Opt> opts) {
        List<String> out = new ArrayList<>();
        for (Opt o : opts) out.addAll(o.lines());
        return out;
    }

    /** The declarations with other defaults (footprint's servlet options), by name. */
    public static List<Opt> withDefaults(List<Opt> opts, Map<String, String> defaults) {
        return opts.stream().map(o -> defaults.containsKey(o.name()) ? o.withDefault(defaults.get(o.name())) : o).toList();
    }
}
