package vtlab.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import javax.xml.parsers.DocumentBuilderFactory;

import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The closing lines of ./vtlab test: what ran, failed and was skipped (each skip by name and reason), read from the
 * surefire and failsafe XML reports written since the suite started, so a skip can never hide in Maven's output. The
 * launcher runs it after Maven; its exit code fails the suite when more controls were skipped than {@link #MAX_SKIPPED_CONTROLS}.
 */
public final class SuiteReport {
    /**
     * How an end-to-end control's skip begins (vtlab.it.Evidence): the lab ran twice and the rows its claim needs were
     * still not evidence, or the judge left its claim undetermined. The control then neither passes nor fails: its claim
     * is missing, said with its reason.
     */
    public static final String CONTROL_SKIPPED = "control not judged on this machine: ";

    /**
     * More skipped controls than this fail the suite. Two: a busy 2-core machine flags a control's rows twice in a row
     * now and then (each control runs the lab once more first), and a suite may lose one or two controls to its
     * machine without a fault of the lab's; more is a suite whose controls showed too few of their claims, which must
     * not end green on controls that asserted nothing.
     */
    public static final int MAX_SKIPPED_CONTROLS = 2;

    /** The launcher's exit code when the suite fails for its skipped controls alone (Maven's own run passed). */
    static final int SKIPPED_CONTROLS_EXIT = 3;
    /**
     * Tests named in the closing lines with their outcome, a skip with its reason: k6AcceptsTheScripts is the one
     * test of the real k6 (AGPL-3.0, opt-in): it runs only where k6 is installed (./vtlab setup k6), and says so here
     * when it is not, never silently.
     */
    static final List<String> WATCHED = List.of("vtlab.load.generator.K6GeneratorTest#k6AcceptsTheScripts");

    /**
     * One test case of a report: outcome passed, failed, error or skipped; message the failure's (or skip's) message
     * and type its exception class ("" when it passed); seconds as the report gives them.
     */
    record Case(String kind, String className, String name, String outcome, String message, String type, double seconds) {
        /** Class (without its package) and method: ServletRunIT#virtualThreads... */
        String test() {
            return className.substring(className.lastIndexOf('.') + 1) + "#" + name;
        }
    }

    private SuiteReport() {}

    public static void main(String[] args) throws Exception {
        Path home = Path.of(args[0]);
        long since = args.length > 1 ? Long.parseLong(args[1]) * 1000 : 0;
        String seconds = args.length > 2 ? args[2] : null;
        List<Case> cases = read(home, since);
        lines(cases, seconds).forEach(l -> System.err.println("vtlab test: " + l));
        if (tooManySkippedControls(cases)) System.exit(SKIPPED_CONTROLS_EXIT);
    }

    /** The end-to-end controls skipped because their claim could not be judged on this run's rows. */
    static List<Case> skippedControls(List<Case> cases) {
        return cases.stream().filter(c -> c.outcome().equals("skipped") && c.message().startsWith(CONTROL_SKIPPED)).toList();
    }

    /** Whether the suite fails for its skipped controls: more than {@link #MAX_SKIPPED_CONTROLS}. */
    static boolean tooManySkippedControls(List<Case> cases) {
        return skippedControls(cases).size() > MAX_SKIPPED_CONTROLS;
    }

    /** Every test case of the reports under home's modules written at or after since (epoch ms). */
    static List<Case> read(Path home, long since) throws Exception {
        List<Case> all = new ArrayList<>();
        List<Path> reports;
        try (Stream<Path> s = Files.walk(home, 4)) {
            reports = s.filter(p -> p.getFileName().toString().matches("TEST-.*\\.xml"))
                    .filter(p -> p.getParent().getFileName().toString().matches("(surefire|failsafe)-reports"))
                    .filter(p -> modified(p) >= since).sorted().toList();
        }
        for (Path r : reports) {
            String kind = r.getParent().getFileName().toString().startsWith("failsafe") ? "end-to-end" : "unit";
            all.addAll(cases(r, kind));
        }
        return all;
    }

    /** The test cases of one TEST-*.xml report (surefire's or failsafe's). */
    static List<Case> cases(Path report, String kind) throws Exception {
        List<Case> all = new ArrayList<>();
        NodeList cases = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(report.toFile()).getElementsByTagName("testcase");
        for (int i = 0; i < cases.getLength(); i++) {
            Element c = (Element) cases.item(i);
            String outcome = "passed", message = "", type = "";
            for (String o : List.of("skipped", "failure", "error")) {
                NodeList n = c.getElementsByTagName(o);
                if (n.getLength() > 0) {
                    outcome = o.equals("failure") ? "failed" : o.equals("error") ? "error" : "skipped";
                    message = ((Element) n.item(0)).getAttribute("message");
                    type = ((Element) n.item(0)).getAttribute("type");
                    // an assumption's skip (JUnit's assumeTrue) has no message attribute: its reason is the first line of the
                    // stack trace surefire writes inside the element ("...TestAbortedException: Assumption failed: WHY")
                    if (message.isBlank()) {
                        String first = firstLine(n.item(0).getTextContent().strip());
                        int why = first.indexOf("Assumption failed: ");
                        message = why >= 0 ? first.substring(why + "Assumption failed: ".length()) : first;
                    }
                }
            }
            double seconds;
            try {
                seconds = Double.parseDouble(c.getAttribute("time").replace(",", ""));
            } catch (NumberFormatException e) {
                seconds = 0;
            }
            all.add(new Case(kind, c.getAttribute("classname"), c.getAttribute("name"), outcome, message, type, seconds));
        }
        return all;
    }

    private static long modified(Path p) {
        try {
            return Files.getLastModifiedTime(p).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }

    static List<String> lines(List<Case> cases, String seconds) {
        List<String> out = new ArrayList<>();
        for (String kind : List.of("unit", "end-to-end")) {
            List<Case> k = cases.stream().filter(c -> c.kind().equals(kind)).toList();
            out.add(String.format("%s tests: %d run, %d failed, %d skipped", kind, k.size(),
                    k.stream().filter(c -> c.outcome().equals("failed") || c.outcome().equals("error")).count(),
                    k.stream().filter(c -> c.outcome().equals("skipped")).count()));
        }
        for (Case c : cases) {
            if (!c.outcome().equals("passed")) out.add(c.outcome() + ": " + c.className() + "#" + c.name() + (c.message().isBlank() ? "" : " (" + firstLine(c.message()) + ")"));
        }
        for (String w : WATCHED) {
            String outcome = cases.stream().filter(c -> (c.className() + "#" + c.name()).equals(w))
                    .map(c -> c.outcome() + (c.outcome().equals("skipped") && !c.message().isBlank() ? " (" + firstLine(c.message()) + ")" : ""))
                    .findFirst().orElse("did not run");
            out.add(w + ": " + outcome);
        }
        int controls = skippedControls(cases).size();
        if (controls > 0) {
            out.add(String.format("%d control%s skipped, the claim not judged on this machine (more than %d fails the suite)%s", controls,
                    controls == 1 ? "" : "s", MAX_SKIPPED_CONTROLS, controls > MAX_SKIPPED_CONTROLS ? ": the suite FAILED" : ""));
        }
        if (seconds != null) out.add("took " + Long.parseLong(seconds) / 60 + " min " + Long.parseLong(seconds) % 60 + " s");
        return out;
    }

    static String firstLine(String s) {
        String l = s.lines().findFirst().orElse("");
        return l.length() > 200 ? l.substring(0, 200) + "…" : l;
    }
}
