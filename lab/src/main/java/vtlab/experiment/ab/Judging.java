package vtlab.experiment.ab;

import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.data.MachineRecord;
import vtlab.data.judge.Judge;
import vtlab.data.judge.Margin;
import vtlab.data.judge.Stats;

/**
 * How an ab run's claims are judged, kept in kept.json (ab.judge) so the verdict reads the run as it was: the
 * equivalence margin (--margin) and the level of each look (95% for a fixed --forks N; under --forks auto, which looks
 * after each fork a side, at most {@link AbForks#MAX_LOOKS} times, {@link Judge#SEQUENTIAL_LEVEL}); and this machine's noise floor as the run found it
 * (ab.noise_floor, null when none was measured here), which a comparison without an interval is set beside.
 */
record Judging(Margin margin, double level, MachineRecord.NoiseFloor floor) {
    static final Judging DEFAULT = new Judging(Margin.DEFAULT, Stats.LEVEL);

    Judging(Margin margin, double level) {
        this(margin, level, null);
    }

    /** Not a scenario file's key: a scenario's findings are its thresholds, which judge no ratio. */
    static final Opt MARGIN = Opt.of("margin", "5%", "the band around 1.0 within which a ratio is called equivalent: the\n"
            + "whole interval inside [1/(1+M), 1+M] (5%: half the 10% a switch of thread\nmodel is made for; set it against this machine's noise floor, ./vtlab ab --aa);\nabove 0%, at most 50%");

    /** --margin and --forks as given: refused with one line when --margin is not a percent in (0, 50%]. */
    static Judging of(Options o, boolean auto) throws UsageError {
        Margin m = MARGIN.given(o) ? Margin.parse("--" + MARGIN.name(), MARGIN.string(o, MARGIN.dflt())) : Margin.DEFAULT;
        return new Judging(m, auto ? Judge.SEQUENTIAL_LEVEL : Stats.LEVEL);
    }

    Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("margin", margin.fraction());
        m.put("level", level);
        return m;
    }

    /** As this run judges with this machine's noise floor (null: none measured here), kept beside it in kept.json. */
    Judging withFloor(MachineRecord.NoiseFloor floor) {
        return new Judging(margin, level, floor);
    }

    /**
     * From ab's judge and noise_floor entries of kept.json ({@link AbKept}): the default margin and
     * level for a run before they were kept; {@link #DEFAULT} for entries that are not one.
     */
    static Judging kept(JsonNode n, JsonNode floorNode) {
        try {
            MachineRecord.NoiseFloor floor = MachineRecord.NoiseFloor.of(floorNode);
            if (n.isMissingNode()) return new Judging(Margin.DEFAULT, Stats.LEVEL, floor);
            return new Judging(new Margin(n.path("margin").asDouble(Margin.DEFAULT.fraction())), n.path("level").asDouble(Stats.LEVEL), floor);
        } catch (IllegalArgumentException e) {
            return DEFAULT;
        }
    }
}
