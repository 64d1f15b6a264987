package vtlab.experiment.ab;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import vtlab.data.RunDir;
import vtlab.data.RunKept;

/**
 * What ab keeps of a run in kept.json and its verdict reads back, typed: written under "ab" when the run is planned
 * (the service's libraries, what the next step knows of the service, how claims are judged with this machine's noise
 * floor), read back with the run's JDK versions when its findings are computed, after the run and again on ./vtlab
 * report. One class writes the entry and reads it, so a key written is the key read.
 *
 * @param libraries the service jar's libraries; null for a --cmd service or a run before they were kept
 * @param nextStep  what the next step knows of the service; null for a run before it was kept
 * @param judging   the margin and level of the run's claims and its noise floor ({@link Judging#DEFAULT} before they were kept)
 * @param jdks      each JDK major's exact version the rows ran on ({@link RunKept#jdks}); empty when the run kept none
 */
record AbKept(ServiceLibraries libraries, NextStep.Facts nextStep, Judging judging, Map<Integer, String> jdks) {
    /** A run folder without ab's entry (or that kept nothing): nothing kept, claims judged by default. */
    static final AbKept NONE = new AbKept(null, null, Judging.DEFAULT, Map.of());

    static final String NEXT_STEP = "next_step", JUDGE = "judge";

    AbKept {
        jdks = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(jdks));
    }

    /** ab's entry as kept.json keeps it: the libraries' keys at its top, then next_step, judge, noise_floor. */
    Map<String, Object> asMap() {
        Map<String, Object> out = new LinkedHashMap<>();
        if (libraries != null) out.putAll(libraries.asMap());
        if (nextStep != null) out.put(NEXT_STEP, nextStep.asMap());
        out.put(JUDGE, judging.asMap());
        // this machine's noise floor as the run found it (a later A/A may replace it): the verdict quotes the run's own
        if (judging.floor() != null) out.put(NoiseFloorLine.KEY, judging.floor().asMap());
        return out;
    }

    /** From a run folder ({@link RunKept#read}); {@link #NONE}'s values where it kept nothing. */
    static AbKept read(Path runDir) {
        return of(RunKept.read(new RunDir(runDir)));
    }

    /** From what the run kept: ab's entry ("ab") and the rows' JDKs. */
    static AbKept of(RunKept run) {
        JsonNode ab = run.experiment(AbExperiment.NAME);
        ServiceLibraries libraries = ServiceLibraries.kept(ab);
        return new AbKept(libraries, NextStep.Facts.kept(ab.path(NEXT_STEP), libraries), Judging.kept(ab.path(JUDGE), ab.path(NoiseFloorLine.KEY)),
                run.jdks());
    }
}
