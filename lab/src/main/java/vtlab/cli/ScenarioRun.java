package vtlab.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.data.Dataset;
import vtlab.experiment.scenario.Scenario;
import vtlab.experiment.scenario.ScenarioExperiment;
import vtlab.experiment.scenario.ScenarioReport;
import vtlab.experiment.scenario.ScenarioWriter;
import vtlab.experiment.scenario.Threshold;
import vtlab.load.generator.Generators;

/**
 * ./vtlab run FILE.toml: a scenario file (docs/scenarios.md) as the options it stands for, under the ones given
 * beside it ({@link #of}), which the run command runs as the scenario experiment; then ({@link #afterRun}) its
 * thresholds (exit code 99 when one is breached, a JUnit report with --junit, a Markdown summary, also to
 * GITHUB_STEP_SUMMARY when set) and the file that repeats the run, saved in the run folder as scenario.toml with its
 * CSV files. It knows nothing of the run command: the command calls it before and after the run.
 *
 * @param given   the options given beside the file
 * @param options the options the run takes: the file's, under the ones given beside it
 */
record ScenarioRun(Scenario scenario, Options given, Options options) {
    /** Options of a run that do not change what is measured: not kept in the saved file's [overrides]. */
    static final Set<String> NOT_SAVED = Set.of("out", "port", "junit", "help", "scenario");

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
        String gen = merged.string("generator", "vegeta");
        if (!Generators.byName(gen).sendsMix()) {
            List<String> can = Generators.sendingMixes();
            throw new UsageError(file + ": generator " + gen + " cannot send a weighted mix of requests (" + String.join(" and ", can)
                    + " can: wrk through its Lua request() hook, vegeta an attacker per request or, closed, one fed the mix's cycle, k6 through its script); use --generator "
                    + String.join(" or ", can));
        }
        if (merged.has("ramp")) throw new UsageError(file + ": --ramp sends k6's one request, not a scenario's mix: drop --ramp");
        // planned once before the scenario's line, so that what its rows refuse (a threshold on a mode they do not have) is the only line
        new ScenarioExperiment().plan(merged, vtlab.plan.PlanContext.from(merged));
        out.println("vtlab: scenario " + sc.name() + " (" + file + "): " + sc.mix().entries().size() + " requests ("
                + sc.mix().spec().replace("+", ", ") + "), " + sc.thresholds().size() + " thresholds");
        return new ScenarioRun(sc, o, merged);
    }

    /**
     * After the run as the scenario experiment (its folder, and the exit code the run earned): the file saved, the
     * thresholds evaluated and reported; the exit code, 99 where a threshold was breached and the run was otherwise ok.
     */
    int afterRun(vtlab.data.RunDir run, int runCode, PrintStream out) throws IOException {
        Scenario sc = scenario;
        Path junit = options.has("junit") ? Path.of(options.string("junit", "")).toAbsolutePath() : null;
        Path dir = run.dir();
        save(sc, given, dir);
        List<vtlab.data.DataRow> rows = Files.exists(run.matrix()) ? Dataset.rows(run.matrix()) : List.of();
        List<Threshold.Outcome> outcomes = new ArrayList<>();
        for (Threshold t : sc.thresholds()) outcomes.add(t.evaluate(rows, dir.resolve("raw")));
        int code = runCode;
        boolean breached = outcomes.stream().anyMatch(x -> !x.passed());
        if (breached && code == ExitCodes.OK) code = ExitCodes.THRESHOLDS;
        for (Threshold.Outcome x : outcomes) {
            out.println("vtlab: threshold " + x.threshold().text() + ": " + (x.passed() ? "passed" : "FAILED") + " (" + x.detail() + ")");
        }
        if (junit != null) {
            if (junit.getParent() != null) Files.createDirectories(junit.getParent());
            Files.writeString(junit, ScenarioReport.junit(sc.name(), outcomes));
        }
        String md = ScenarioReport.markdown(sc.name(), code, outcomes, rows, ScenarioExperiment.requests(dir));
        Files.writeString(dir.resolve("scenario-summary.md"), md);
        String step = System.getenv("GITHUB_STEP_SUMMARY");
        if (step != null && !step.isBlank()) {
            Files.writeString(Path.of(step), md + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
        out.println("vtlab: the run again: ./vtlab run " + dir.resolve("scenario.toml"));
        if (code == ExitCodes.THRESHOLDS) out.println("vtlab: scenario thresholds breached: exit code 99");
        return code;
    }

    /**
     * The file's options, by name as the file typed them (never turned into command-line words), an option given beside
     * it replacing the file's, then those given beside it; the scenario file itself, and the generator that sends the
     * mix by default: vegeta for an open load (an attacker per request); for a closed one vegeta (-rate=0, a worker per
     * connection, each request measured apart) when a threshold names a request, whose numbers only it gives, else wrk:
     * vegeta costs 2-2.7x wrk's CPU a request, and near 20,000 req/s a closed row ran 14% slower under it than under
     * wrk with its core not yet flagged as the limit (docs/results.md), so the whole-load numbers stay wrk's unless a
     * request's own are asked for.
     */
    static Options options(Scenario sc, Options given) throws UsageError {
        Map<String, List<String>> values = new java.util.LinkedHashMap<>();
        // the load model chosen beside the file takes the file's axis of the other model with it
        boolean openGiven = given.has("rates") || given.has("rate-profile") || "open".equals(given.string("load-model", null));
        boolean closedGiven = given.has("conc") || "closed".equals(given.string("load-model", null));
        Set<String> dropped = openGiven ? Set.of("conc") : closedGiven ? Set.of("rates", "rate-profile", "load-model", "max-in-flight") : Set.of();
        for (var e : sc.options().entrySet()) {
            if (given.has(e.getKey()) || dropped.contains(e.getKey())) continue;
            values.put(e.getKey(), new ArrayList<>(e.getValue()));
        }
        if (!given.has("generator") && !sc.options().containsKey("generator")) {
            // the model the run takes: the file's keys left after the model given beside it dropped the other's
            boolean open = openGiven || (!closedGiven && (values.containsKey("rates") || values.containsKey("rate-profile")
                    || List.of("open").equals(values.get("load-model"))));
            boolean byRequest = sc.thresholds().stream().anyMatch(t -> t.request() != null);
            values.put("generator", new ArrayList<>(List.of(open || byRequest ? "vegeta" : "wrk")));
        }
        values.computeIfAbsent("scenario", k -> new ArrayList<>()).add(sc.file().toAbsolutePath().normalize().toString());
        for (var e : given.asMap().entrySet()) values.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).addAll(e.getValue());
        return Options.of(values);
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
        List<String> header = new ArrayList<>(List.of("saved by ./vtlab run from " + sc.file().toAbsolutePath().normalize() + ": ./vtlab run "
                + dir.resolve("scenario.toml") + " repeats the run"));
        if (!beside.isEmpty()) header.add("given on the command line beside the file, written in its tables: " + String.join(", ", beside));
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("scenario.toml"), ScenarioWriter.text(saved, header, inside ? null : sc.base(), sc.csvNames()));
        if (inside) {
            for (var e : sc.csvFiles().entrySet()) {
                Path to = dir.resolve(e.getKey()).normalize();
                Files.createDirectories(to.getParent());
                Files.copy(e.getValue(), to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }
}
