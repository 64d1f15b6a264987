package vtlab.experiment.seeds;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import vtlab.data.Column;
import vtlab.data.Dataset;
import vtlab.data.Schema;
import vtlab.data.StudySection;
import vtlab.plan.Suite;
import vtlab.stack.ThreadMode.Threads;

/**
 * `./vtlab run seeds`: every experiment that checks a seed's claim, with settings in the seeds' shapes (the
 * concurrencies, pools, variants and JDKs the claims name, one rep), then the claims table ({@link SeedClaims}) in the
 * findings and as claims.md in the run folder. Sized for at most 45 minutes on a 2-core machine (the parts' planned
 * warm-ups and holds are ~20 min; SUT starts and warm-ups that wait for a steady rate, one JIT-bound SUT core, add the rest).
 */
public final class SeedsSuite implements Suite {
    /** The claims table the run folder gets, as markdown the README can take. */
    public static final String CLAIMS_FILE = "claims.md";
    /** The same table as data: the report's "Seed claims" section draws it. */
    public static final String CLAIMS_CSV = "claims.csv";
    static final List<Column> COLUMNS = List.of(Column.text("claim", "what a seed says"), Column.text("seed", "the seed's number (shared/seeds)"),
            Column.text("seed_number", "the seed's own figure"), Column.text("seed_hardware", "the machine the seed measured on"),
            Column.text("here", "this run's figure, computed from its rows"), Column.text("experiment", "the experiment whose rows check it"),
            Column.text("verdict", "holds / holds in shape / does not hold here / not measured"), Column.text("why", "why not as stated"));

    private static final List<Part> PARTS = List.of(
            part("servlet", "workloads", "hello,sleep", "conc", "400,1000", "reps", "1", "hold", "15s"),
            part("footprint"),
            part("thread-cost"),
            part("thread-memory", "threads", "1000,10000"),
            part("spring-sleep", "variants", "article", "conc", "400", "reps", "1", "hold", "15s"),
            part("order-summary", "conc", "500,2500,10000", "reps", "1", "hold", "15s"),
            // the claim is virtual's pool 100 over pool 50; at 2,000 connections pool 50's queue outlasted the 15 s hold
            // (p99 8 s, Little's law and timeouts flagged the row), at 400 both rows are valid evidence
            part("pool-bottleneck", "modes", Threads.VIRTUAL.word, "pools", "50,100", "conc", "400", "reps", "1", "hold", "15s"),
            // the JDK 21 control pins in compiled code only after a warm-up long enough for C2 (issue 15, item 1)
            part("pinning", "warmup", "20s", "hold", "10s"),
            part("reactive", "variants", "platform-2000,virtual,reactive", "conc", "2000"),
            part("response-size", "sizes", "10,1m", "conc", "1,8"));

    private static Part part(String experiment, String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put(kv[i], kv[i + 1]);
        return new Part(experiment, Map.copyOf(m));
    }

    @Override
    public String name() {
        return "seeds";
    }

    @Override
    public String summary() {
        return "every seed claim checked here: " + String.join(", ", PARTS.stream().map(Part::experiment).toList())
                + " in the seeds' shapes, then a claims table (claims.md, claims.csv; 44 min on a 2-core machine)";
    }

    @Override
    public List<String> axes() {
        List<String> out = new ArrayList<>();
        for (Part p : PARTS) {
            out.add(String.format("%-16s %s", p.experiment(), p.settings().isEmpty() ? "(its defaults)"
                    : String.join(" ", p.settings().entrySet().stream().map(e -> "--" + e.getKey() + " " + e.getValue()).sorted().toList())));
        }
        out.add("options typed on the command line apply to every part (--quick keeps the parts' axes, shortens their timing)");
        return out;
    }

    @Override
    public List<Part> parts() {
        return PARTS;
    }

    @Override
    public StudySection section() {
        return new StudySection(CLAIMS_CSV, "seed-claims", "Seed claims on this machine", "seed claims", "claim", null, null);
    }

    /** The claims checked against the whole run folder (every part's rows and study files); claims.md written beside. */
    @Override
    public List<vtlab.data.Finding> findings(Path runDir, List<vtlab.data.DataRow> rows) {
        try {
            List<SeedClaims.Checked> checked = SeedClaims.check(SeedClaims.Evidence.of(runDir));
            Files.writeString(runDir.resolve(CLAIMS_FILE), SeedClaims.markdown(checked));
            Path csv = runDir.resolve(CLAIMS_CSV);
            Files.deleteIfExists(csv); // findings are computed again by ./vtlab report
            try (Dataset d = new Dataset(csv, Schema.of(COLUMNS))) {
                for (SeedClaims.Checked c : checked) {
                    Map<String, Object> r = new LinkedHashMap<>();
                    r.put("claim", c.claim().claim());
                    r.put("seed", c.claim().seed());
                    r.put("seed_number", c.claim().seedNumber());
                    r.put("seed_hardware", c.claim().hardware());
                    r.put("here", c.measured().here());
                    r.put("experiment", c.claim().experiment());
                    r.put("verdict", c.measured().verdict().words);
                    r.put("why", c.measured().why());
                    d.append(r);
                }
            }
            return checked.stream().map(SeedClaims::finding).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
