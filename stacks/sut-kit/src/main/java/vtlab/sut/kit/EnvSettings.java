package vtlab.sut.kit;

import java.util.List;
import java.util.Map;

/** A server's start-up switches from its environment (the lab sets them from stack.json's settings). */
public final class EnvSettings {
    private final Map<String, String> env;

    public EnvSettings(Map<String, String> env) {
        this.env = Map.copyOf(env);
    }

    public static EnvSettings fromEnv() {
        return new EnvSettings(System.getenv());
    }

    /** A whole number, dflt where the variable is absent or blank. */
    public int integer(String key, int dflt) {
        String v = env.get(key);
        return v == null || v.isBlank() ? dflt : Integer.parseInt(v.trim());
    }

    public String text(String key, String dflt) {
        String v = env.get(key);
        return v == null || v.isBlank() ? dflt : v.trim();
    }

    /** One of the values given (dflt where absent); another is refused naming the ones there are. */
    public String choice(String key, List<String> values, String dflt) {
        String v = text(key, dflt);
        if (!values.contains(v)) throw new IllegalArgumentException(key + " must be one of " + String.join(", ", values) + ", not " + v);
        return v;
    }
}
