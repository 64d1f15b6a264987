package vtlab.data;

/**
 * How a study's data file shows in the report, as data: the study says it (vtlab.plan.Study#section), the CLI writes
 * it into findings.json, the report draws it. The report knows chart kinds, never study file names.
 *
 * @param dataFile     the CSV file in the run folder, e.g. jmh.csv
 * @param anchor       the section's id in report.html (also where the study's findings link to)
 * @param title        the section heading
 * @param nav          the section's link text in the page's navigation
 * @param rowPrefix    anchors of the file's table rows are rowPrefix-N (verdicts cite them)
 * @param chart        the chart kind drawn over the file: {@link #SCORES} or {@link #THREAD_MEMORY}; null for a table only
 * @param chartHeading heading over the charts
 */
public record StudySection(String dataFile, String anchor, String title, String nav, String rowPrefix, String chart, String chartHeading) {
    /** JMH-style rows (benchmark, score, error, unit, thread_mode): bars of score ± error, one chart per unit. */
    public static final String SCORES = "scores";
    /** Rows of threads, mode, NMT thread KB and RSS: memory against the thread count. */
    public static final String THREAD_MEMORY = "thread-memory";

    /** A file shown as a table under its own name. */
    public static StudySection table(String dataFile) {
        String stem = dataFile.replaceFirst("\\.csv$", "");
        return new StudySection(dataFile, stem, dataFile, stem, stem, null, null);
    }
}
