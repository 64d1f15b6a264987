package vtlab.experiment.ab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import vtlab.data.Environment;
import vtlab.data.RunDir;

/**
 * What ab keeps of a run in environment.json and its verdict reads back, typed: written under "ab" when the run is
 * planned (the service's libraries, what the next step knows of the service, how claims are judged with this machine's
 * noise floor), read back with the run's JDK versions when its findings are computed, after the run and again on
 * ./vtlab report. One class writes the entry and reads it, so a key written is the key read, and the file is read once.
 *
 * @param libraries the service jar's libraries; null for a --cmd service or a run before they were kept
 * @param nextStep  what the next step knows of the service; null for a run before it was kept
 * @param judging   the margin and level of the run's claims and its noise floor ({@link Judging#DEFAULT} before they were kept)
 * @param jdks      each JDK major's exact version, as the run's environment.json has it ("jdks"); empty when it has none
 */
record AbEnvironment(ServiceLibraries libraries, NextStep.Facts nextStep, Judging judging, Map<Integer, String> jdks) {
    /** A run folder without ab's entry (or without environment.json): nothing kept, claims judged by default. */
    static final AbEnvironment NONE = new AbEnvironment(null, null, Judging.DEFAULT, Map.of());

    static final String NEXT_STEP = "next_step", JUDGE = "judge";

    AbEnvironment {
        jdks = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(jdks));
    }

    /** ab's entry as environment.json keeps it: the libraries' keys at its top, then next_step, judge, noise_floor. */
    Map<String, Object> asMap() {
        Map<String, Object> out = new LinkedHashMap<>();
        if (libraries != null) out.putAll(libraries.asMap());
        if (nextStep != null) out.put(NEXT_STEP, nextStep.asMap());
        out.put(JUDGE, judging.asMap());
        // this machine's noise floor as the run found it (a later A/A may replace it): the verdict quotes the run's own
        if (judging.floor() != null) out.put(NoiseFloorLine.KEY, judging.floor().asMap());
        return out;
    }

    /** From a run folder's environment.json; {@link #NONE} when there is none or it does not read. */
    static AbEnvironment read(Path runDir) {
        Path env = new RunDir(runDir).environment();
        try {
            return Files.exists(env) ? of(new ObjectMapper().readTree(env.toFile())) : NONE;
        } catch (IOException e) {
            return NONE;
        }
    }

    /** From environment.json's document: ab's entry ("ab") and the run's JDKs. */
    static AbEnvironment of(JsonNode doc) {
        JsonNode ab = doc.path(AbExperiment.NAME);
        ServiceLibraries libraries = ServiceLibraries.kept(ab);
        return new AbEnvironment(libraries, NextStep.Facts.kept(ab.path(NEXT_STEP), libraries), Judging.kept(ab.path(JUDGE), ab.path(NoiseFloorLine.KEY)),
                Environment.jdkVersions(doc));
    }
}
