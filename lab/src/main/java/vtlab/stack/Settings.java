package vtlab.stack;

import java.util.Map;

import vtlab.core.NamedValues;

/**
 * Values of a stack's settings (stack.json's "settings": maxThreads, hikariPool, ...) by setting name, in the order
 * given, immutable: the axis values an experiment configures a row with ({@link Stack#configure}), and what a row's
 * configuration resolved them to ({@link Stack.Config#values}).
 */
public final class Settings extends NamedValues<Settings> {
    /** No setting given: each at its default. */
    public static final Settings NONE = new Settings(Map.of());

    /** These settings, in the map's order (copied). */
    public Settings(Map<String, String> values) {
        super(values, Settings::new);
    }

    /** A setting's value as a whole number (it must be set). */
    public int intValue(String setting) {
        return Integer.parseInt(get(setting).trim());
    }
}
