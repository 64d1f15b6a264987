package vtlab.report;

import java.util.Locale;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Escaping for everything that comes from data (scenario names, paths, JVM arguments, error messages): into HTML
 * text and attributes, and into JSON inlined in a script element, where "</script>" or "<!--" in a string would
 * otherwise end or derail the element.
 */
public final class Html {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Html() {}

    /** Text or a quoted attribute value. */
    public static String esc(Object o) {
        if (o == null) return "";
        String s = o.toString();
        StringBuilder sb = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    /**
     * JSON safe to place between script tags: '<', '>', '&' and the JavaScript line separators can only occur inside
     * JSON strings, where their \\u escapes mean the same thing.
     */
    public static String scriptJson(Object value) {
        String json;
        try {
            json = JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not serialisable to JSON: " + e.getMessage(), e);
        }
        return scriptSafe(json);
    }

    static String scriptSafe(String json) {
        StringBuilder sb = new StringBuilder(json.length() + 32);
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            switch (c) {
                case '<' -> sb.append("\\u003c");
                case '>' -> sb.append("\\u003e");
                case '&' -> sb.append("\\u0026");
                case '\u2028' -> sb.append("\\u2028");
                case '\u2029' -> sb.append("\\u2029");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    /** A fragment identifier made of safe characters only, stable for the same input. */
    public static String anchor(String prefix, String name) {
        String s = name == null ? "" : name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
        return prefix + "-" + (s.isEmpty() ? "x" : s);
    }
}
