package vtlab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import vtlab.pin.PinControl;
import vtlab.probe.JfrPinningProbe;
import vtlab.tier.tool.Jdk;

/**
 * The positive control pins once the JIT has compiled it, on the JDKs the lab runs SUTs on (21: synchronized; 25: a
 * native frame): the packaged control's own check (vtlab.pin.PinCheck) in a JVM of that JDK, its recording read by
 * the lab's pinning probe. On JDK 21 a lock on a bare `new Object()` was removed by C2 and the control stopped pinning.
 */
class PinControlJitIT {
    static final int MEASURED = 20;
    static final Pattern COMPILED = Pattern.compile("compiled-at (\\d+)");

    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"21", "25"})
    void pinsAfterC2CompiledIt(String major) throws Exception {
        Jdk jdk = Jdk.resolve(major); // as --jdk 21 finds it (installed from PyPI when missing)
        Path jar = Path.of(PinControl.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertTrue(jar.toString().endsWith(".jar"), "the multi-release jar, not classes: " + jar);
        Path jfr = tmp.resolve("pins.jfr"), log = tmp.resolve("check.log");
        Process p = new ProcessBuilder(jdk.java().toString(), "-XX:CompileCommand=quiet",
                "-XX:CompileCommand=dontinline,vtlab.pin.PinControl::runPinned", "--enable-native-access=ALL-UNNAMED",
                "-cp", jar.toString(), "vtlab.pin.PinCheck", jfr.toString(), Integer.toString(MEASURED))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("PinCheck did not finish on JDK " + major);
        }
        String out = Files.readString(log);
        assertEquals(0, p.exitValue(), out);
        Matcher m = COMPILED.matcher(out);
        assertTrue(m.find(), out);
        JfrPinningProbe.Pins after = JfrPinningProbe.read(jfr, Instant.ofEpochMilli(Long.parseLong(m.group(1))), null);
        // at least: the last warm-up calls (compiled too) may end in the same millisecond as the mark
        assertTrue(after.count() >= MEASURED, after.count() + " pins: every call after C2 compiled runPinned must pin on JDK " + jdk.label()
                + " (" + out.strip() + ")\n" + after.render("after compilation", 3));
        assertTrue(after.stacks().getFirst().getKey().contains("vtlab.pin.PinControl"), after.stacks().toString());
    }
}
