package vtlab.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A declared option: its name, its default as typed on the command line, the default under --quick if another, one
 * line of help, the type of its value and, where a scenario file may set it, the table it is a key of. Each option is
 * declared once: the value is read through the declaration, so the help shown is the default the code uses; the
 * declarations of the chosen experiments (plus the lab's own, vtlab.plan.RunOptions) are what makes any other option
 * unknown; the run's help is rendered from them, and a scenario file's keys and the types they take are theirs.
 *
 * @param dflt  null: no default (the experiment decides, e.g. "overrides the variants' connections")
 * @param type  what a value is ({@link Type}): how a scenario file writes it, and whether it is a flag
 * @param table the scenario file's table it is a key of ([service], [load], [run], [slo]), or null: not a key there
 * @param choices the words a value may be (each word of a comma list), or empty: any value; the read refuses any
 *                other, the help lists them and the scenario file's schema has them as its enum
 */
public record Opt(String name, String dflt, String quickDflt, String help, Type type, String table, List<String> choices) {
    /**
     * What an option's value is. A scenario file writes a list type as an array (or one value) and the option takes
     * it as one comma list; a repeated one (an axis of values that may hold commas, as --fault's) takes each value as
     * given; a table of strings (ENV) is K=V each.
     */
    public enum Type {
        STRING("a string"), INT("a whole number"), FLAG("true or false"), STRINGS("a string or an array of strings"),
        REPEATED("a string or an array of strings"), INTS("a whole number or an array of them"), NUMBERS("a number or an array of numbers"),
        ENV("a table of strings, e.g. { NAME = \"value\" }");

        /** What a scenario file must write, in its refusal. */
        public final String words;

        Type(String words) {
            this.words = words;
        }
    }

    public Opt {
        if (type == null) type = Type.STRING;
        choices = choices == null ? List.of() : List.copyOf(choices);
    }

    /** Column where the help starts in `vtlab list`. */
    static final int HELP_COLUMN = 33;

    public static Opt of(String name, String dflt, String help) {
        return new Opt(name, dflt, null, help, Type.STRING, null, List.of());
    }

    /** An option that takes no value (--quick): true when given. */
    public static Opt flag(String name, String help) {
        return new Opt(name, null, null, help, Type.FLAG, null, List.of());
    }

    public Opt quick(String q) {
        return new Opt(name, dflt, q, help, type, table, choices);
    }

    /** The same option with help saying what it means to one experiment (e.g. pinning's --conc). */
    public Opt withHelp(String h) {
        return new Opt(name, dflt, quickDflt, h, type, table, choices);
    }

    public Opt withDefault(String d) {
        return new Opt(name, d, quickDflt, help, type, table, choices);
    }

    /** The same option taking values of this type. */
    public Opt typed(Type t) {
        return new Opt(name, dflt, quickDflt, help, t, table, choices);
    }

    /** The same option as a key of a scenario file's table (service, load, run, slo), of its type. */
    public Opt inScenario(String t) {
        return new Opt(name, dflt, quickDflt, help, type, t, choices);
    }

    /** The same option taking only these words (each of a comma list): the read refuses any other in one line. */
    public Opt withChoices(List<String> c) {
        return new Opt(name, dflt, quickDflt, help, type, table, c);
    }

    /** The options with this one's default standing in when it was not given. */
    private Options effective(Options o) throws UsageError {
        String d = quickDflt != null && o.flag("quick") ? quickDflt : dflt;
        return d == null ? o : o.withDefaults(Map.of(name, d));
    }

    public boolean given(Options o) {
        return o.has(name);
    }

    /** Whether a flag is on: given bare, or as true/yes/on/1 (false/no/off/0: off; any other value refused). */
    public boolean on(Options o) throws UsageError {
        return effective(o).flag(name);
    }

    /**
     * The value given, or a default the reader works out itself where the declared one will not do (a duration
     * --quick shortens, a path under the lab's home): the declaration still names what is read.
     */
    public String string(Options o, String otherwise) {
        return o.string(name, otherwise);
    }

    /** As {@link #string(Options, String)}, a duration. */
    public Duration duration(Options o, Duration otherwise, boolean allowZero) throws UsageError {
        return o.duration(name, otherwise, allowZero);
    }

    /** As {@link #string(Options, String)}, a positive whole number. */
    public int integer(Options o, int otherwise) throws UsageError {
        return o.positiveInt(name, otherwise);
    }

    public List<Integer> ints(Options o) throws UsageError {
        return effective(o).positiveInts(name, List.of());
    }

    public int integer(Options o) throws UsageError {
        return effective(o).positiveInt(name, 0);
    }

    /** The words given (a comma list, repeats dropped), each one of the choices; the default's when not given. */
    public List<String> chosen(Options o) throws UsageError {
        if (choices.isEmpty()) throw new IllegalStateException("--" + name + " declares no choices");
        return effective(o).choices(name, choices, List.of());
    }

    /** A single word of the choices (the last given wins). */
    public String choice(Options o) throws UsageError {
        return chosen(o).getLast();
    }

    /** A word the code was handed rather than read here (a registry's lookup), refused as the read refuses it. */
    public String check(String word) throws UsageError {
        if (!choices.contains(word)) throw Options.notAChoice(name, word, choices);
        return word;
    }

    public List<String> list(Options o) throws UsageError {
        return effective(o).all(name);
    }

    /** Every value given, commas kept (a header, a K=V); none when not given. */
    public List<String> every(Options o) {
        return o.every(name);
    }

    public String string(Options o) throws UsageError {
        return effective(o).string(name, null);
    }

    public Duration duration(Options o, boolean allowZero) throws UsageError {
        return effective(o).duration(name, null, allowZero);
    }

    /**
     * `vtlab list` lines: "--name default" then the help; a help with line breaks continues under itself, the choices
     * on a line of their own.
     */
    public List<String> lines() {
        String head = "--" + name + (dflt == null ? "" : " " + dflt);
        String[] h = (help + (quickDflt == null ? "" : " (--quick: " + quickDflt + ")")
                + (choices.isEmpty() ? "" : "\nchoices: " + String.join(", ", choices))).split("\n");
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
