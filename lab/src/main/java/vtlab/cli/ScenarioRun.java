package vtlab.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import vtlab.plan.PlanContext;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.experiment.scenario.Scenario;
import vtlab.experiment.scenario.ScenarioExperiment;
import vtlab.experiment.scenario.ScenarioWriter;
import vtlab.load.generator.Generators;

/**
 * ./vtlab run FILE.toml: a scenario file (docs/scenarios.md) as the options it stands for, under the ones given
 * beside it ({@link #of}), which the run command runs as the scenario experiment; then ({@link #steps}) its
 * thresholds (exit code 99 when one is breached, a JUnit report with --junit, a Markdown summary, also to
 * GITHUB_STEP_SUMMARY when set) and the file that repeats the run, saved in the run folder as scenario.toml with its
 * CSV files. It knows nothing of the run command: the command calls it before the run and runs its steps after.
 *
 * @param given   the options given beside the file
 * @param options the options the run takes: the file's, under the ones given beside it
 */
record ScenarioRun(Scenario scenario, Options given, Options options) {
    /** Options of a run that do not change what is measured: not kept in the saved file's [overrides]. */
    static final Set<String> NOT_SAVED = Set.of("out", "port", "junit", "help", "scenario");

    /** A scenario's generator when its file names none, in either load model: it measures each request of the mix apart. */
    static final String DEFAULT_GENERATOR = "vegeta";

    /** Whether run's words name a scenario file. */
    static boolean isScenario(List<String> names) {
        return names.stream().anyMatch(n -> n.endsWith(".toml"));
    }

    /** The file read and checked, its options merged under the ones given, refused in one line before anything starts. */
    static ScenarioRun of(Options o, List<String> names, PrintStream out) throws UsageError {
        if (names.size() != 1) throw new UsageError("run takes one scenario file and no experiment beside it, not " + String.join(" ", names));
        Path file = Path.of(names.getFirst());
        Scenario sc = Scenario.read(file, ScenarioExperiment.metrics());
        sc.refuseUnsetEnv();
        Options merged = options(sc, o);
        String gen = Generators.OPTION.string(merged, DEFAULT_GENERATOR);
        if (!Generators.byName(gen).sendsMix()) {
            List<String> can = Generators.sendingMixes();
            throw new UsageError(file + ": generator " + gen + " cannot send a weighted mix of requests (" + String.join(" and ", can)
                    + " can: wrk through its Lua request() hook, vegeta an attacker per request or, closed, one fed the mix's cycle, k6 through its script); use --generator "
                    + String.join(" or ", can));
        }
        if (vtlab.load.generator.K6Generator.RAMP.given(merged)) throw new UsageError(file + ": --ramp sends k6's one request, not a scenario's mix: drop --ramp");
        if (sc.mix().entries().size() > 1 && !Generators.byName(gen).measuresMixApart()) {
            // said once, up front: the run then has the mix's counts at the SUT, no latency of a request of its own
            out.println("vtlab: generator " + gen + " sends the mix but its requests are not measured apart (no p50/p99 per request name; vegeta measures each)");
        }
        // planned once before the scenario's line, so that what its rows refuse (a threshold on a mode they do not have) is the only line
        new ScenarioExperiment().plan(merged, vtlab.plan.PlanContext.from(merged));
        out.println("vtlab: scenario " + sc.name() + " (" + file + "): " + sc.mix().entries().size() + " requests ("
                + sc.mix().spec().replace("+", ", ") + "), " + sc.thresholds().size() + " thresholds");
        return new ScenarioRun(sc, o, merged);
    }

    /** What a scenario does after the run's own steps: its file saved, its thresholds, JUnit XML and step summary. */
    List<AfterRun> steps() {
        Path junit = ScenarioExperiment.JUNIT.given(options) ? Path.of(ScenarioExperiment.JUNIT.string(options, "")).toAbsolutePath() : null;
        return List.of(new ScenarioSteps.Save(scenario, given), new ScenarioSteps.Thresholds(scenario), new ScenarioSteps.Junit(scenario, junit),
                new ScenarioSteps.StepSummary(scenario));
    }

    /**
     * The file's options, by name as the file typed them (never turned into command-line words), an option given beside
     * it replacing the file's, then those given beside it; the scenario file itself, and the generator that sends the
     * mix when the file names none: vegeta in both models (open, an attacker per request; closed, -rate=0 with a worker
     * per connection), each request measured apart. It never depends on the thresholds: vegeta costs 2-2.7x wrk's CPU
     * a request, and near 20,000 req/s a closed row ran 14% slower under it than under wrk (docs/results.md), so a
     * switch on a threshold naming a request would move the whole load's numbers beside it; wrk is named to be had.
     */
    static Options options(Scenario sc, Options given) throws UsageError {
        Map<String, List<String>> values = new java.util.LinkedHashMap<>();
        // the load model chosen beside the file takes the file's axis of the other model with it
        boolean openGiven = PlanContext.RATES.given(given) || PlanContext.RATE_PROFILE.given(given) || "open".equals(PlanContext.LOAD_MODEL.string(given, null));
        boolean closedGiven = PlanContext.CONC.given(given) || "closed".equals(PlanContext.LOAD_MODEL.string(given, null));
        Set<String> dropped = openGiven ? Set.of("conc") : closedGiven ? Set.of("rates", "rate-profile", "load-model", "max-in-flight") : Set.of();
        for (var e : sc.options().entrySet()) {
            if (given.has(e.getKey()) || dropped.contains(e.getKey())) continue;
            values.put(e.getKey(), new ArrayList<>(e.getValue()));
        }
        // one generator per answer: the file's, else vegeta in either model, never switched by what a threshold names
        // (a closed row near 20,000 req/s ran 14% slower under vegeta than under wrk: a threshold naming a request
        // would have changed the whole load's numbers beside it)
        if (!Generators.OPTION.given(given) && !sc.options().containsKey(Generators.OPTION.name())) values.put(Generators.OPTION.name(), new ArrayList<>(List.of(DEFAULT_GENERATOR)));
        values.computeIfAbsent("scenario", k -> new ArrayList<>()).add(sc.file().toAbsolutePath().normalize().toString());
        for (var e : given.asMap().entrySet()) values.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).addAll(e.getValue());
        return Options.of(values);
    }

    /**
     * The rows with a replay's fidelity to its access log as columns (Replayed: what each row sent against the
     * scenario's baseline), which the fidelity_* thresholds read; kept in summary.json too (its "scenario_fidelity",
     * a row each). The rows as they are when the scenario names no baseline.
     */
    static List<vtlab.data.DataRow> withFidelity(Path dir, List<vtlab.data.DataRow> rows) throws IOException {
        vtlab.experiment.scenario.Replayed.Of log = vtlab.experiment.scenario.Replayed.of(dir);
        if (log == null) return rows;
        List<vtlab.data.DataRow> out = new ArrayList<>();
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        var list = json.createArrayNode();
        for (vtlab.data.DataRow r : rows) {
            var f = vtlab.experiment.scenario.Replayed.of(dir, r, log.log(), log.templates());
            out.add(vtlab.experiment.scenario.Replayed.withCells(r, f));
            var o = list.addObject().put("row", r.number()).put("mode", r.mode()).put("rep", r.text(vtlab.data.Columns.REP));
            if (f.fidelity() == null) o.put("not_measured", f.why());
            else {
                f.fidelity().cells().forEach((k, v) -> { if (v.isEmpty()) o.putNull(k); else o.put(k, Double.parseDouble(v)); });
                o.put("line", f.fidelity().line());
            }
        }
        Path summary = dir.resolve("summary.json");
        if (Files.exists(summary)) {
            var root = (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(summary.toFile());
            root.set("scenario_fidelity", list);
            Files.writeString(summary, json.writeValueAsString(root) + "\n");
        }
        return out;
    }

    /**
     * The file that repeats this run, in the run folder, written by the scenario's writer: the scenario read, with the
     * options given beside it in its tables (an option of no table in [overrides]), and its CSV files beside it (a
     * path outside the scenario's folder: the folder it was read from, as base).
     */
    static void save(Scenario sc, Options given, Path dir) throws IOException {
        boolean inside = sc.csvFiles().keySet().stream().allMatch(p -> !Path.of(p).isAbsolute() && !Path.of(p).normalize().startsWith(".."));
        Map<String, List<String>> options = new java.util.LinkedHashMap<>(sc.options());
        List<String> beside = new ArrayList<>();
        for (var e : given.asMap().entrySet()) {
            if (NOT_SAVED.contains(e.getKey())) continue;
            options.put(e.getKey(), e.getValue());
            beside.add("--" + e.getKey() + " " + String.join(" ", e.getValue()));
        }
        Scenario saved = Scenario.of(sc.name(), options, sc.mix(), sc.thresholds(), sc.csvFiles());
        // the baseline beside the saved file when it was beside the scenario (a base written otherwise resolves it)
        boolean baselineBeside = sc.baseline() != null && inside && !Path.of(sc.baseline()).isAbsolute() && !Path.of(sc.baseline()).normalize().startsWith("..");
        if (sc.baseline() != null) saved = saved.withBaseline(baselineBeside || !inside ? sc.baseline() : sc.baselinePath().toString());
        List<String> header = new ArrayList<>(List.of("saved by ./vtlab run from " + sc.file().toAbsolutePath().normalize() + ": ./vtlab run "
                + dir.resolve("scenario.toml") + " repeats the run"));
        if (!beside.isEmpty()) header.add("given on the command line beside the file, written in its tables: " + String.join(", ", beside));
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("scenario.toml"), ScenarioWriter.text(saved, header, inside ? null : sc.base(), sc.csvNames()));
        if (inside) {
            if (baselineBeside) {
                Path to = dir.resolve(sc.baseline()).normalize();
                Files.createDirectories(to.getParent());
                Files.copy(sc.baselinePath(), to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            for (var e : sc.csvFiles().entrySet()) {
                Path to = dir.resolve(e.getKey()).normalize();
                Files.createDirectories(to.getParent());
                Files.copy(e.getValue(), to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }
}
