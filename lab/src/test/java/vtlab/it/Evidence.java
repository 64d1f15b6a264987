package vtlab.it;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.opentest4j.TestAbortedException;

import vtlab.cli.SuiteReport;
import vtlab.data.DataRow;
import vtlab.data.Rows;

/**
 * What an end-to-end control may assert of a run, from the lab's own judgement of its rows: which rows are evidence
 * (status ok) and which the lab flagged, voided or failed, and so whether the lab must have made the control's claim
 * in full (its interval), a narrower one (fewer rows, no interval), or refused it (not evidence). A control asserts
 * the claim that its rows allow, never one wording of a lucky run: no assertion depends on a row not being flagged
 * unless the control ran the lab again for it ({@link #rerunOnce}), and a claim still refused after that is a skip with
 * its reason, never a pass: a control asserts its claim, from the ok rows and the judge's typed claims (findings.json),
 * not the lab's words for a refusal nor arithmetic of its own.
 *
 * <p>A claim rests on parts, each a set of rows the lab reads one way: a base (the A/B's reps) is judged from its ok
 * rows alone, so one ok row is enough for a narrower claim; a variant (a lever's reps) is evidence only when every one
 * of its rows is ok, as the lab's next step judges it.
 */
final class Evidence {
    private final List<DataRow> rows;

    private Evidence(List<DataRow> rows) {
        this.rows = rows;
    }

    /** A run's rows as matrix.csv has them (Lab.rows), numbered 1.. as the lab numbers them in its findings. */
    static Evidence of(List<Map<String, String>> rows) {
        return new Evidence(DataRow.numbered(rows));
    }

    /** Row n, 1-based. */
    DataRow row(int n) {
        return rows.get(n - 1);
    }

    /** How many rows the run has. */
    int rows() {
        return rows.size();
    }

    /** The numbers of every row, 1.. */
    List<Integer> all() {
        return rows.stream().map(DataRow::number).toList();
    }

    /** Of these rows, those the lab took as evidence (status ok). */
    List<Integer> ok(Collection<Integer> of) {
        return of.stream().filter(n -> row(n).ok()).toList();
    }

    /** Of these rows, those that are not evidence: flagged (a flag that voids it), failed, or any status but ok. */
    List<Integer> notEvidence(Collection<Integer> of) {
        return of.stream().filter(n -> !row(n).ok()).toList();
    }

    /** Whether every one of these rows is evidence. */
    boolean allOk(Collection<Integer> of) {
        return !of.isEmpty() && notEvidence(of).isEmpty();
    }

    /** Why these rows are not evidence, as the lab said it: "row 1 flagged (littles-law); row 3 failed (…)", "" when all are ok. */
    String why(Collection<Integer> of) {
        return notEvidence(of).stream().map(n -> {
            DataRow r = row(n);
            String voiding = r.flags().stream().filter(Rows::voids).collect(Collectors.joining(", "));
            String said = r.failed() ? r.text(vtlab.data.Columns.NOTE) : voiding.isEmpty() ? String.join(", ", r.flags()) : voiding;
            return "row " + n + " " + (r.status().isBlank() ? "without a status" : r.status()) + (said.isBlank() ? "" : " (" + said + ")");
        }).collect(Collectors.joining("; "));
    }

    /** The lab's way of naming rows in a claim: "row 2", "rows 1, 2". */
    static String rowsOf(Collection<Integer> of) {
        return (of.size() == 1 ? "row " : "rows ") + of.stream().map(String::valueOf).collect(Collectors.joining(", "));
    }

    /** The rows whose param key has this value ("lever" "pool:20"), in order; a null value: the rows without the key. */
    List<Integer> withParam(String key, String value) {
        return rows.stream().filter(r -> java.util.Objects.equals(r.param(key), value)).map(DataRow::number).toList();
    }

    /**
     * One part of a claim: its rows, and whether the lab needs every one of them ok to claim anything from it (a
     * variant's) or judges it from its ok rows alone (a base's, where one ok row still allows a narrower claim).
     */
    record Part(String name, List<Integer> rows, boolean every) {
        static Part base(String name, List<Integer> rows) {
            return new Part(name, List.copyOf(rows), false);
        }

        static Part variant(String name, List<Integer> rows) {
            return new Part(name, List.copyOf(rows), true);
        }
    }

    /** What the lab may say of a claim from its rows. */
    enum Call {
        /** Every row the claim rests on is evidence: the claim in full, with its interval where it has reps. */
        CLAIM,
        /** Some rows are not, but each part keeps what the lab needs: the claim from fewer rows (e.g. "(row 2)", no interval). */
        NARROWER,
        /**
         * A part has no evidence left (the lab refuses the claim), or the judge left it undetermined on ok rows: the
         * claim is missing; a control runs once more for it, then skips.
         */
        REFUSED
    }

    /** The lab's call on a claim resting on these parts, and why (the rows that are not evidence). */
    record Judged(Call call, String why, List<Part> parts) {
        /** Whether the control should run the lab again: the rows its claim needs were voided or flagged. */
        boolean rerun() {
            return call == Call.REFUSED;
        }

        /** A part's rows that are evidence, as the lab names them in a narrower claim. */
        List<Integer> okRows(Evidence e, String part) {
            return e.ok(parts.stream().filter(p -> p.name().equals(part)).findFirst().orElseThrow(() -> new AssertionError("no part " + part)).rows());
        }

        @Override
        public String toString() {
            return call + (why.isEmpty() ? "" : " (" + why + ")");
        }
    }

    /** The lab's call on a claim resting on these parts. A part with no rows at all refuses the claim (nothing to show). */
    Judged judge(Part... parts) {
        List<Integer> every = new ArrayList<>();
        Call call = Call.CLAIM;
        for (Part p : parts) {
            every.addAll(p.rows());
            List<Integer> ok = ok(p.rows());
            if (ok.size() == p.rows().size() && !ok.isEmpty()) continue;
            if (ok.isEmpty() || p.every()) call = Call.REFUSED;
            else if (call == Call.CLAIM) call = Call.NARROWER;
        }
        String why = java.util.Arrays.stream(parts).filter(p -> p.rows().isEmpty()).map(p -> p.name() + ": no rows").collect(Collectors.joining("; "));
        String flagged = why(every);
        return new Judged(call, why.isEmpty() ? flagged : flagged.isEmpty() ? why : why + "; " + flagged, List.of(parts));
    }

    /** A run of the lab a control judges. */
    interface Attempt<T> {
        T run(int attempt) throws Exception;
    }

    /**
     * Runs the lab, and once more only when the rows the control's claim needs were voided or flagged, or the judge
     * left the claim undetermined (the lab could only refuse it), printing that it ran again and why. Gives the run
     * whose rows carry the claim; when the second run still cannot, the control is skipped with the reason
     * ({@link #skip}): a control whose claim is missing never passes.
     */
    static <T> T rerunOnce(String control, Attempt<T> attempt, Function<T, Judged> judge) throws Exception {
        T first = attempt.run(1);
        Judged j = judge.apply(first);
        if (!j.rerun()) return first;
        System.out.println("vtlab IT: " + control + ": ran the lab again: the rows its claim needs are not evidence (" + j.why() + ")");
        T second = attempt.run(2);
        Judged again = judge.apply(second);
        if (again.rerun()) throw skip(control, again.why());
        return second;
    }

    /**
     * The control's skip: its claim is missing on this machine (rows not evidence twice, an undetermined answer), said
     * with why. Not a pass, and not the lab's fault to fail on: the suite counts these (vtlab.cli.SuiteReport) and fails
     * when there are more than {@link SuiteReport#MAX_SKIPPED_CONTROLS}.
     */
    static TestAbortedException skip(String control, String why) {
        System.out.println("vtlab IT: " + control + ": skipped: " + why);
        return new TestAbortedException(SuiteReport.CONTROL_SKIPPED + control + ": " + why);
    }

    /** A claim the judge could not make from rows that are evidence: undetermined, or none at all: a rerun, then a skip. */
    static Judged undetermined(Judged rows, String why) {
        return new Judged(Call.REFUSED, why, rows.parts());
    }

    /** The judge's typed claims of a run (findings.json's claims[], every experiment's), each as Claim#asMap wrote it. */
    static List<Map<String, Object>> claims(java.nio.file.Path run) throws java.io.IOException {
        return vtlab.data.Findings.read(run).experiments().stream().flatMap(x -> x.findings().stream()).flatMap(f -> f.claims().stream()).toList();
    }

    /** The typed claim of a run whose what is this ("pool 20 / virtual as shipped req/s"), or null when the lab made none. */
    static Map<String, Object> claim(java.nio.file.Path run, String what) throws java.io.IOException {
        return claims(run).stream().filter(c -> what.equals(c.get("what"))).findFirst().orElse(null);
    }

    /** A typed claim's answer: better, worse, equivalent, undetermined. */
    static String answer(Map<String, Object> claim) {
        return String.valueOf(claim.get("answer"));
    }

    /** A typed claim's forks a side as the judge counted them, {base, other}. */
    static int[] forks(Map<String, Object> claim) {
        return new int[] {((Number) claim.get("forks_a")).intValue(), ((Number) claim.get("forks_b")).intValue()};
    }
}
