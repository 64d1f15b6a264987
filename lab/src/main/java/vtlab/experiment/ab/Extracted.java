package vtlab.experiment.ab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import vtlab.core.UsageError;
import vtlab.stack.Stack;
import vtlab.tier.tool.Jdk;

/**
 * A Spring Boot jar run extracted, the launch lever's variant: {@code java -Djarmode=tools -jar APP.jar extract
 * --destination DIR} (Spring Boot 3.3+) into a folder of the lab's own, never beside the user's jar, then
 * {@code java -jar DIR/APP.jar}, whose classes load from plain jars instead of through the nested-jar class loader.
 * It runs from the folder the jar as shipped runs from, so that a service reading ./config/ or ./application.properties
 * there changes its launch only, not its configuration. Done once per jar and run, the folder removed when the lab
 * exits. An extraction that fails gives a stack whose start prints why and exits, so the variant's row fails with that
 * reason and the run goes on.
 */
final class Extracted {
    private Extracted() {}

    private static final Map<String, Stack> DONE = new ConcurrentHashMap<>();

    /** The stack of the service's jar run extracted, extracted on first use with the row's JDK. */
    static String stack(String name, Jdk jdk) {
        return DONE.computeIfAbsent(name + "|" + jdk.home(), k -> make(name, jdk)).name();
    }

    private static Stack make(String name, Jdk jdk) {
        Stack s;
        try {
            s = Stack.load(name);
        } catch (UsageError e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        String extractedName = name + "-extracted";
        String why;
        try {
            Path dir = Files.createTempDirectory("vtlab-extracted-");
            deleteOnExit(dir);
            try {
                // the shipped jar's working folder, not the extraction's: the same ./config/ read
                Stack out = new Stack(extractedName, s.description() + ", run extracted (" + dir + ")", s.dir(), vtlab.tier.BootJar.extract(jdk, s.jar(), dir),
                        s.runtimeInfoPath(), s.settings(), s.tiers(), s.expect(), s.workloads(), s.data(), s.launch(), s.modes(), s.roles());
                Stack.define(out);
                return out;
            } catch (IOException e) {
                why = e.getMessage(); // the tool's own words: "java -Djarmode=tools -jar … extract failed (exit N): …"
            }
        } catch (IOException e) {
            why = "extract failed: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            why = "extract interrupted";
        }
        // a start that says why and exits: the variant's row fails with it, the run goes on
        String say = "printf '%s\\n' '" + why.replace("'", "") + "' >&2; exit 3";
        Stack out = new Stack(extractedName, s.description() + ", not extracted: " + why, s.dir(), s.jar(), s.runtimeInfoPath(),
                s.settings(), s.tiers(), s.expect(), s.workloads(), s.data(), new Stack.Launch(say, s.launch().appPackages(), s.launch().startTimeout()),
                s.modes(), s.roles());
        Stack.define(out);
        return out;
    }

    private static void deleteOnExit(Path dir) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try (var walk = Files.walk(dir)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException ignored) {
                // a temporary folder left behind
            }
        }));
    }
}
