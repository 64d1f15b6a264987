package vtlab.data;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

import vtlab.data.judge.Claim;

/**
 * One finding of an experiment: its sentence, the matrix rows it stands on as data (their 1-based numbers in
 * matrix.csv, the report's "row-N" anchors), so the report links its evidence without reading the sentence back, and
 * the judge's claims it makes, typed (vtlab.data.judge.Claim#asMap: what, estimate, set, level, forks, answer,
 * margin), so that a reader of findings.json need not parse the sentence for a number either.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Finding(String text, List<Integer> rows, List<Map<String, Object>> claims) {
    public Finding {
        rows = rows == null ? List.of() : rows.stream().filter(n -> n != null && n > 0).distinct().toList();
        claims = claims == null ? List.of() : List.copyOf(claims);
    }

    public Finding(String text, List<Integer> rows) {
        this(text, rows, List.of());
    }

    /** The same finding with the judge's claims it makes. */
    public Finding withClaims(List<Claim> made) {
        return new Finding(text, rows, made.stream().map(Claim::asMap).toList());
    }

    /** A finding that names no row (a study's, a claim about the run as a whole). */
    public static Finding of(String text) {
        return new Finding(text, List.of());
    }

    /** A finding standing on these rows (read back from matrix.csv: each knows its number). */
    public static Finding of(String text, Collection<DataRow> evidence) {
        List<Integer> n = new ArrayList<>();
        for (DataRow r : evidence) n.add(r.number());
        return new Finding(text, n);
    }

    /** Findings that name no row, one per sentence. */
    public static List<Finding> of(List<String> texts) {
        return texts.stream().map(Finding::of).toList();
    }

    /** The sentences alone. */
    public static List<String> texts(List<Finding> findings) {
        return findings.stream().map(Finding::text).toList();
    }
}
