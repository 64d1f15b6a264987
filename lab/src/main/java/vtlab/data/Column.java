package vtlab.data;

/**
 * One column of a dataset, declared once by the component that produces its values (a generator, a probe, the
 * validity checks, the runner), so `vtlab list columns` and the CSV header come from the same declarations.
 */
public record Column(String name, Kind kind, String unit, String meaning) {
    /** What a value of the column may be; a value of another kind is refused when it is put into a row. */
    public enum Kind {
        NUMBER, INTEGER, TEXT, BOOLEAN;

        public boolean accepts(Object v) {
            return v == null || switch (this) {
                case NUMBER -> v instanceof Number;
                case INTEGER -> v instanceof Integer || v instanceof Long || v instanceof Short;
                case TEXT -> v instanceof String;
                case BOOLEAN -> v instanceof Boolean;
            };
        }
    }

    public static Column number(String name, String unit, String meaning) {
        return new Column(name, Kind.NUMBER, unit, meaning);
    }

    public static Column integer(String name, String unit, String meaning) {
        return new Column(name, Kind.INTEGER, unit, meaning);
    }

    public static Column text(String name, String meaning) {
        return new Column(name, Kind.TEXT, "", meaning);
    }

    public static Column bool(String name, String meaning) {
        return new Column(name, Kind.BOOLEAN, "", meaning);
    }

    /** One line for `vtlab list columns`. */
    public String describe() {
        return String.format("%-30s %-8s %-12s %s", name, kind.name().toLowerCase(java.util.Locale.ROOT), unit, meaning);
    }
}
