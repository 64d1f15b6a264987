package vtlab.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import vtlab.plan.VerificationFailed;
import vtlab.probe.ThreadDump;
import vtlab.tier.tool.Jdk;
import vtlab.tier.host.TierProcess;

/**
 * The thread mode of a service that does not report it (no runtime-info: ./vtlab ab), proven from JSON thread dumps
 * taken under the warm-up's load, which list virtual threads: a virtual row must show requests running on virtual
 * threads, a platform row none. A wrong property name or a framework that ignores it fails the row before the hold.
 */
final class ThreadModeCheck {
    static final String NOT_IN_EFFECT = "virtual threads not in effect";
    /** Frames of a request being served, whatever the service's own code: the servlet containers' request paths. */
    static final List<String> SERVER_FRAMES = List.of("org.apache.coyote.", "jakarta.servlet.", "javax.servlet.",
            "org.eclipse.jetty.server.", "io.undertow.server.");
    /** Dumps at these fractions of the first warm-up slice, until one shows a request in flight. */
    static final double[] AT = {0.3, 0.5, 0.7};
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Threads serving a request in one dump, by kind. */
    record Seen(int virtual, int platform) {
        Seen plus(Seen o) {
            return new Seen(virtual + o.virtual, platform + o.platform);
        }
    }

    private final String mode;
    private final List<String> frames;
    private Seen seen = new Seen(0, 0);
    private int dumps;

    /** @param appPackages the service's own packages: a thread in their frames serves a request too */
    ThreadModeCheck(String mode, List<String> appPackages) {
        this.mode = mode;
        List<String> f = new ArrayList<>(SERVER_FRAMES);
        f.addAll(appPackages);
        this.frames = List.copyOf(f);
    }

    /** Thread dumps of the SUT while a load of length d runs (it started at t0), kept in raw/; stops once one is conclusive. */
    void during(Jdk jdk, TierProcess sut, Duration d, long t0, Path raw, String stem) throws IOException, InterruptedException {
        for (double at : AT) {
            long wait = t0 + (long) (d.toNanos() * at) - System.nanoTime();
            if (wait > 0) Thread.sleep(wait / 1_000_000);
            Path file = ThreadDump.take(sut, jdk, raw.resolve(stem + ".mode-check-" + (++dumps) + ".threads.json"));
            seen = seen.plus(count(Files.readString(file), frames));
            if (seen.virtual() > 0 || seen.platform() > 0) return;
        }
    }

    /** Throws unless what the dumps saw fits the row's mode. */
    void conclude() throws VerificationFailed {
        verdict(mode, seen, dumps);
    }

    static void verdict(String mode, Seen seen, int dumps) throws VerificationFailed {
        String what = seen.virtual() + " request(s) on virtual threads, " + seen.platform() + " on platform threads in "
                + dumps + " thread dump(s) under load";
        if (seen.virtual() == 0 && seen.platform() == 0) {
            throw new VerificationFailed("no request in flight seen: " + what + " (the thread mode is unproven)");
        }
        if (mode.equals("virtual") && seen.virtual() == 0) throw new VerificationFailed(NOT_IN_EFFECT + ": " + what);
        if (!mode.equals("virtual") && seen.virtual() > 0) {
            throw new VerificationFailed("a " + mode + " row ran requests on virtual threads: " + what);
        }
    }

    /** Threads, virtual or not, with a frame of the given packages on their stack. */
    static Seen count(String json, List<String> frames) throws IOException {
        int virtual = 0, platform = 0;
        for (JsonNode container : JSON.readTree(json).path("threadDump").path("threadContainers")) {
            for (JsonNode t : container.path("threads")) {
                boolean serving = false, isVirtual = t.path("virtual").asBoolean(false);
                for (JsonNode f : t.path("stack")) {
                    // "loader/module@version/class.method(File.java:1)": the class part only
                    String frame = f.asText(), head = frame.contains("(") ? frame.substring(0, frame.indexOf('(')) : frame;
                    frame = head.substring(head.lastIndexOf('/') + 1);
                    if (frame.contains("java.lang.VirtualThread.")) isVirtual = true; // JDK 21 does not mark them
                    if (frames.stream().anyMatch(frame::startsWith)) serving = true;
                }
                if (!serving) continue;
                if (isVirtual) virtual++;
                else platform++;
            }
        }
        return new Seen(virtual, platform);
    }
}
