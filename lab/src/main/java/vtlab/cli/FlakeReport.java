package vtlab.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The table at the end of ./vtlab test --repeat N: each end-to-end test with how many of the N runs it passed, the
 * first failure's reason and the seconds it took, then each run's time. The launcher runs failsafe N times and keeps
 * each run's XML reports, its Maven log, its seconds and Maven's exit code in DIR/1 .. DIR/N; this reads them (with
 * {@link SuiteReport#cases}) and exits 0 only when every test passed in every run and every run's Maven ended well.
 * <p>
 * A test that has no report in a run (its JVM was killed by the fork timeout or crashed) did not pass in it; a skip
 * does not pass either (a test of this suite must run wherever the suite runs).
 */
public final class FlakeReport {
    /** A reason longer than this is cut: the table is for reading, the report in DIR/K has the rest. */
    static final int REASON_MAX = 160;

    /** One run of the repeated tests: its number (1..N), wall seconds, Maven's exit code, its test cases. */
    record Run(int index, long seconds, int exit, List<SuiteReport.Case> cases) {}

    /** A line of the table: test is Class#method (or what --only named, when it never reported). */
    record Line(String test, int passed, int runs, String firstFailure, double minSeconds, double maxSeconds) {
        boolean always() {
            return passed == runs;
        }
    }

    private FlakeReport() {}

    /** DIR N [CLASS | CLASS#METHOD ...]: the tests asked for (their simple names), to name those that never reported. */
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int n = Integer.parseInt(args[1]);
        List<String> asked = List.of(args).subList(2, args.length);
        List<Run> runs = read(dir, n);
        List<Line> table = table(runs, asked, dir);
        render(runs, table, dir).forEach(System.out::println);
        System.exit(green(runs, table) ? 0 : 1);
    }

    /** Runs 1..n as kept in dir; a run whose folder is missing (the launcher stopped) has no cases and exit -1. */
    static List<Run> read(Path dir, int n) throws Exception {
        List<Run> runs = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            Path d = dir.resolve(Integer.toString(i));
            List<SuiteReport.Case> cases = new ArrayList<>();
            if (Files.isDirectory(d)) {
                List<Path> reports;
                try (Stream<Path> s = Files.list(d)) {
                    reports = s.filter(p -> p.getFileName().toString().matches("TEST-.*\\.xml")).sorted().toList();
                }
                for (Path r : reports) cases.addAll(SuiteReport.cases(r, "end-to-end"));
            }
            runs.add(new Run(i, number(d.resolve("seconds"), -1), (int) number(d.resolve("exit"), -1), cases));
        }
        return runs;
    }

    private static long number(Path f, long otherwise) throws IOException {
        if (!Files.exists(f)) return otherwise;
        try {
            return Long.parseLong(Files.readString(f).strip());
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    /**
     * A line per test that reported in any run, in the order asked (then as the reports list them), and one per test
     * asked for that reported in none.
     */
    static List<Line> table(List<Run> runs, List<String> asked, Path dir) {
        Map<String, List<SuiteReport.Case>> byTest = new LinkedHashMap<>(); // test -> its case in each run (null: none)
        List<SuiteReport.Case> all = runs.stream().flatMap(r -> r.cases().stream()).toList();
        List<String> order = new ArrayList<>();
        for (String a : asked) all.stream().filter(c -> matches(c, a)).map(SuiteReport.Case::test).filter(t -> !order.contains(t)).forEach(order::add);
        all.stream().map(SuiteReport.Case::test).filter(t -> !order.contains(t)).forEach(order::add);
        for (String t : order) {
            List<SuiteReport.Case> each = new ArrayList<>();
            for (Run r : runs) each.add(r.cases().stream().filter(c -> c.test().equals(t)).findFirst().orElse(null));
            byTest.put(t, each);
        }
        List<Line> lines = new ArrayList<>();
        for (String a : asked) {
            if (all.stream().noneMatch(c -> matches(c, a))) {
                lines.add(new Line(a, 0, runs.size(), runs.isEmpty() ? "" : "run 1: " + noReport(runs.getFirst(), dir), 0, 0));
            }
        }
        byTest.forEach((test, each) -> {
            int passed = 0;
            String first = "";
            double min = Double.MAX_VALUE, max = 0;
            for (int i = 0; i < each.size(); i++) {
                SuiteReport.Case c = each.get(i);
                if (c != null) {
                    min = Math.min(min, c.seconds());
                    max = Math.max(max, c.seconds());
                }
                if (c != null && c.outcome().equals("passed")) passed++;
                else if (first.isEmpty()) first = "run " + runs.get(i).index() + ": " + (c == null ? noReport(runs.get(i), dir) : reason(c));
            }
            lines.add(new Line(test, passed, runs.size(), first, min == Double.MAX_VALUE ? 0 : min, max));
        });
        return lines;
    }

    /** Whether a case is one of what --only named: a class (simple or qualified), or Class#method (parameterized too). */
    static boolean matches(SuiteReport.Case c, String asked) {
        String a = asked.startsWith("vtlab.it.") ? asked.substring("vtlab.it.".length()) : asked;
        int hash = a.indexOf('#');
        String cls = hash < 0 ? a : a.substring(0, hash);
        String simple = c.className().substring(c.className().lastIndexOf('.') + 1);
        if (!simple.equals(cls)) return false;
        if (hash < 0) return true;
        String method = a.substring(hash + 1);
        return c.name().equals(method) || c.name().startsWith(method + "(") || c.name().startsWith(method + "[");
    }

    /** The first line of what a failed, erroneous or skipped case said; an error also names its exception. */
    static String reason(SuiteReport.Case c) {
        String msg = SuiteReport.firstLine(c.message()).strip();
        String type = c.type().substring(c.type().lastIndexOf('.') + 1);
        String why = switch (c.outcome()) {
            case "skipped" -> "skipped" + (msg.isEmpty() ? "" : ": " + msg);
            case "error" -> type.isEmpty() ? msg : msg.isEmpty() ? type : type + ": " + msg;
            default -> msg.isEmpty() ? (type.isEmpty() ? "failed" : type) : msg;
        };
        return why.length() > REASON_MAX ? why.substring(0, REASON_MAX) + "…" : why;
    }

    private static String noReport(Run r, Path dir) {
        return "no report (the test JVM was stopped or crashed before the class ended; see " + dir.resolve(r.index() + "/maven.log") + ")";
    }

    /** Every test passed in every run, and Maven ended well each time (a failed test or none at all fails it). */
    static boolean green(List<Run> runs, List<Line> table) {
        return !runs.isEmpty() && !table.isEmpty() && table.stream().allMatch(Line::always) && runs.stream().allMatch(r -> r.exit() == 0);
    }

    static List<String> render(List<Run> runs, List<Line> table, Path dir) {
        List<String> out = new ArrayList<>();
        int n = runs.size();
        int width = Math.max("test".length(), table.stream().mapToInt(l -> l.test().length()).max().orElse(0));
        String fmt = "%-" + width + "s  %6s  %9s  %s";
        out.add("");
        out.add(String.format(Locale.ROOT, "vtlab test: %d run(s) of %d end-to-end test(s); each run's reports and Maven log in %s/1..%d",
                n, table.size(), dir, n));
        out.add(String.format(Locale.ROOT, fmt, "test", "passed", "seconds", "first failure").stripTrailing());
        for (Line l : table) {
            String secs = l.maxSeconds() == 0 ? "-" : Math.round(l.minSeconds()) == Math.round(l.maxSeconds())
                    ? Long.toString(Math.round(l.maxSeconds())) : Math.round(l.minSeconds()) + "-" + Math.round(l.maxSeconds());
            out.add(String.format(Locale.ROOT, fmt, l.test(), l.passed() + "/" + l.runs(), secs, l.firstFailure()).stripTrailing());
        }
        for (Run r : runs) {
            long failed = r.cases().stream().filter(c -> !c.outcome().equals("passed")).count();
            String maven = r.exit() == 0 ? "" : r.exit() < 0 ? ", not run" : failed > 0 ? ", Maven exit " + r.exit()
                    : ", Maven exit " + r.exit() + " with no failed test: see " + dir.resolve(r.index() + "/maven.log");
            out.add(String.format(Locale.ROOT, "run %d: %s, %d test(s), %d not passed%s", r.index(), duration(r.seconds()), r.cases().size(), failed, maven));
        }
        long flaky = table.stream().filter(l -> !l.always() && l.passed() > 0).count(), never = table.stream().filter(l -> l.passed() == 0).count();
        out.add(green(runs, table) ? String.format(Locale.ROOT, "every test passed %d of %d", n, n)
                : String.format(Locale.ROOT, "not green: %d test(s) failed some runs, %d failed every run%s", flaky, never,
                        runs.stream().anyMatch(r -> r.exit() != 0) && flaky + never == 0 ? " (Maven failed: see the runs above)" : ""));
        return out;
    }

    private static String duration(long s) {
        if (s < 0) return "? s";
        return s >= 60 ? s / 60 + " min " + s % 60 + " s" : s + " s";
    }
}
