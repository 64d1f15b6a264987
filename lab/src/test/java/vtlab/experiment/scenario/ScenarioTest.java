package vtlab.experiment.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.core.UsageError;
import vtlab.stack.Mix;

/** A scenario file read into options, a mix and thresholds; each bad file refused in one line naming file:line: key. */
class ScenarioTest {
    @TempDir
    Path dir;

    static final String GOOD = """
            name = "shop"

            [service]
            stack = "servlet"

            [load]
            conc = [50, 200]
            hold = "5s"
            fault = ["stub:latency=2s@5s-10s"]

            [run]
            modes = ["platform", "virtual"]
            jdk = [25]

            [slo]
            thresholds = [
              "p99_ms[virtual] <= 100",
              "error_rate < 0.1%",
              "throughput_rps[virtual] >= 1.2 * throughput_rps[platform]",
            ]

            [[requests]]
            name = "owner"
            path = "/owners/{id}"
            weight = 5

            [[requests]]
            name = "size"
            method = "post"
            path = "/bytes?n={n}&l={label}"
            headers = { Content-Type = "text/plain" }
            body = "n={n}"
            expect-status = 200
            weight = 2

            [values]
            id = { from = 1, to = 10 }
            n = { csv = "sizes.csv", column = "n" }
            label = { csv = "sizes.csv", column = "label" }
            """;

    Path write(String text) throws Exception {
        Files.writeString(dir.resolve("sizes.csv"), "n,label\n10,ten\n\"100\",\"a, b\"\n");
        Path f = dir.resolve("s.toml");
        Files.writeString(f, text);
        return f;
    }

    Scenario read(String text) throws Exception {
        return Scenario.read(write(text), ScenarioExperiment.metrics());
    }

    /** The refusal's text after the file's path: "LINE: KEY: message". */
    String refusal(String text) throws Exception {
        Path f = write(text);
        UsageError e = assertThrows(UsageError.class, () -> Scenario.read(f, ScenarioExperiment.metrics()));
        assertTrue(e.getMessage().startsWith(f + ":"), e.getMessage());
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        return e.getMessage().substring(f.toString().length() + 1);
    }

    @Test
    void aGoodFileBecomesOptionsAMixAndThresholds() throws Exception {
        Scenario s = read(GOOD);
        assertEquals("shop", s.name());
        assertEquals(List.of("50,200"), s.options().get("conc"));
        assertEquals(List.of("5s"), s.options().get("hold"));
        assertEquals(List.of("stub:latency=2s@5s-10s"), s.options().get("fault"));
        assertEquals(List.of("platform,virtual"), s.options().get("modes"));
        assertEquals(List.of("25"), s.options().get("jdk"));
        assertEquals(List.of("servlet"), s.options().get("stack"));
        assertEquals("owner:5+size:2", s.mix().spec());
        Mix.Entry size = s.mix().entries().get(1);
        assertEquals("POST", size.method());
        assertEquals("n={n}", size.body());
        assertEquals(200, size.expectStatus());
        assertEquals(new Mix.Range(1, 10), s.mix().values().get("id"));
        assertEquals(List.of("10", "100"), ((Mix.Column) s.mix().values().get("n")).cells());
        assertEquals(List.of("ten", "a, b"), ((Mix.Column) s.mix().values().get("label")).cells());
        assertEquals(1, s.mix().files().size(), "two columns of one file: one row a request");
        assertEquals(3, s.thresholds().size());
        assertEquals(0.001, s.thresholds().get(1).value(), 1e-12);
        assertEquals("platform", s.thresholds().get(2).refMode());
        assertEquals(Map.of("sizes.csv", dir.resolve("sizes.csv")), s.csvFiles());
    }

    @Test
    void aPodsLimitsAreTheServicesAsOnTheCommandLine() throws Exception {
        Scenario s = read(GOOD.replace("stack = \"servlet\"", "stack = \"servlet\"\ncpu-quota = [\"0.5\", \"1\"]\nmemory-limit = \"512Mi\""));
        assertEquals(List.of("0.5,1"), s.options().get("cpu-quota"));
        assertEquals(List.of("512Mi"), s.options().get("memory-limit"));
        assertTrue(refusal(GOOD.replace("stack = \"servlet\"", "stack = \"servlet\"\ncpu-quota = 0.5")).startsWith("5: service.cpu-quota: must be a string"));
    }

    /**
     * Each key of a file is an option declared once, where it is read, with its table and type: the tables are derived
     * from those declarations, and they hold exactly the keys a file has always taken.
     */
    @Test
    void everyKeyIsADeclaredOptionWithItsTableAndType() {
        assertEquals(List.of("service", "load", "run", "slo"), List.copyOf(Scenario.TABLES.keySet()));
        java.util.Set<String> keys = new java.util.TreeSet<>();
        Scenario.TABLES.forEach((table, opts) -> opts.forEach((name, o) -> {
            assertEquals(name, o.name());
            assertEquals(table, o.table(), name);
            keys.add(table + "." + name);
        }));
        assertEquals(new java.util.TreeSet<>(List.of("service.stack", "service.app", "service.cmd", "service.env", "service.platform-args",
                "service.virtual-args", "service.platform-env", "service.virtual-env", "service.app-package", "service.start-timeout", "service.aot-cache", "service.no-aot-cache",
                "service.variants", "service.dependency", "service.jvm-args", "service.port", "service.cpu-quota", "service.memory-limit",
                "load.conc", "load.load-model", "load.rates", "load.rate-profile", "load.max-in-flight", "load.warmup", "load.warmup-max",
                "load.hold", "load.reps", "load.forks", "load.iterations", "load.budget", "load.generator", "load.fault", "run.modes", "run.jdk", "run.carriers", "run.probes", "run.fresh-sut",
                "slo.thresholds", "slo.fail-on")), keys);
        assertEquals(vtlab.core.Opt.Type.REPEATED, Scenario.TABLES.get("load").get("fault").type());
        assertEquals(vtlab.core.Opt.Type.INTS, Scenario.TABLES.get("load").get("conc").type());
        assertEquals(vtlab.core.Opt.Type.FLAG, Scenario.TABLES.get("run").get("fresh-sut").type());
        assertTrue(Scenario.TABLES.get("run").get("carriers") == vtlab.plan.RunOptions.CARRIERS, "the lab's own declaration, not a copy");
    }

    /**
     * The file's JSON Schema (for editors) is the one the declarations give: each table's keys exactly, of their types
     * (a new option, or a changed default or help, changes it; the text to copy is written to lab/target).
     */
    @Test
    void theJsonSchemaIsTheDeclarations() throws Exception {
        java.nio.file.Path docs = vtlab.core.LabHome.get().resolve("docs/scenario.schema.json");
        String derived = ScenarioSchema.text();
        if (!derived.equals(java.nio.file.Files.readString(docs))) {
            java.nio.file.Path fresh = vtlab.core.LabHome.get().resolve("lab/target/scenario.schema.json");
            java.nio.file.Files.writeString(fresh, derived);
            org.junit.jupiter.api.Assertions.fail("docs/scenario.schema.json is not what the declarations give: cp " + fresh + " " + docs);
        }
        var schema = new com.fasterxml.jackson.databind.ObjectMapper().readTree(derived);
        for (var t : Scenario.TABLES.entrySet()) {
            java.util.Set<String> inSchema = new java.util.TreeSet<>();
            schema.get("properties").get(t.getKey()).get("properties").fieldNames().forEachRemaining(inSchema::add);
            assertEquals(new java.util.TreeSet<>(t.getValue().keySet()), inSchema, "[" + t.getKey() + "] in docs/scenario.schema.json");
        }
        // types as a file writes them: a list option takes one value or an array, a flag a boolean, a duration its pattern
        var load = schema.get("properties").get("load").get("properties");
        assertEquals("integer", load.get("conc").get("oneOf").get(0).get("type").asText(), load.get("conc").toString());
        assertEquals(ScenarioSchema.DURATION, load.get("hold").get("pattern").asText());
        assertEquals("boolean", schema.get("properties").get("run").get("properties").get("fresh-sut").get("type").asText());
        assertTrue(load.get("generator").get("description").asText().contains(vtlab.load.generator.Generators.OPTION.help().lines().findFirst().orElseThrow()),
                "described by its declaration's help: " + load.get("generator"));
        // a closed set's words as its enum: one word (load-model, generator), or one or an array of them (modes, variants)
        assertEquals(List.of("closed", "open"), words(load.get("load-model").get("enum")));
        List<String> mixes = words(load.get("generator").get("enum"));
        assertEquals(vtlab.load.generator.Generators.sendingMixes(), mixes, "the registry's generators that send a mix");
        assertTrue(mixes.contains("vegeta") && !mixes.contains("oha") && !mixes.contains("hey"), "oha and hey send one request: " + mixes);
        var modes = schema.get("properties").get("run").get("properties").get("modes").get("oneOf");
        assertEquals(vtlab.experiment.ThreadModes.ALL, words(modes.get(0).get("enum")));
        assertEquals(vtlab.experiment.ThreadModes.ALL, words(modes.get(1).get("items").get("enum")), modes.toString());
        var variants = schema.get("properties").get("service").get("properties").get("variants").get("oneOf");
        assertEquals(List.of("as-shipped", "tuned"), words(variants.get(1).get("items").get("enum")), variants.toString());
        assertTrue(load.get("hold").get("enum") == null, "an option of any value has no enum");
    }

    static List<String> words(com.fasterxml.jackson.databind.JsonNode array) {
        assertTrue(array != null && array.isArray(), "an enum: " + array);
        List<String> out = new java.util.ArrayList<>();
        array.forEach(w -> out.add(w.asText()));
        return out;
    }

    @Test
    void anUnknownKeyIsRefusedWithItsLine() throws Exception {
        // the keys in the order of their declarations (the scenario experiment's, the load model's, the lab's own)
        assertEquals("8: load.hodl: unknown key (load has conc, reps, warmup, hold, forks, iterations, budget, load-model, rates, max-in-flight, rate-profile, fault, warmup-max, generator)",
                refusal(GOOD.replace("hold = \"5s\"", "hodl = \"5s\"")));
        assertTrue(refusal("colour = \"red\"\n" + GOOD).startsWith("1: colour: unknown key"));
        assertTrue(refusal(GOOD.replace("weight = 5", "weight = 5\nwieght = 1")).startsWith("26: requests[1].wieght: unknown key"));
    }

    @Test
    void aWrongTypeIsRefusedWithItsLine() throws Exception {
        assertEquals("7: load.conc: must be a whole number or an array of them (got a string)", refusal(GOOD.replace("conc = [50, 200]", "conc = [\"fifty\"]")));
        assertEquals("8: load.hold: must be a string (got a whole number)", refusal(GOOD.replace("hold = \"5s\"", "hold = 5")));
        assertTrue(refusal(GOOD.replace("weight = 2", "weight = \"2\"")).startsWith("34: requests[2].weight: must be a whole number (got a string)"));
    }

    @Test
    void aWeightOfZeroIsRefused() throws Exception {
        assertTrue(refusal(GOOD.replace("weight = 2", "weight = 0")).startsWith("34: requests[2].weight: must be from 1 to 100000 (got 0)"));
    }

    @Test
    void aCsvWithoutTheColumnAPathNamesIsRefused() throws Exception {
        assertEquals("38: values.n: csv sizes.csv has no column 'size' (it has n, label)",
                refusal(GOOD.replace("column = \"n\"", "column = \"size\"")));
        assertTrue(refusal(GOOD.replace("csv = \"sizes.csv\", column = \"n\"", "csv = \"nope.csv\", column = \"n\"")).startsWith("38: values.n: csv nope.csv: no such file"));
    }

    /** A value from an environment variable: the file names the variable only; the run refuses it unset, naming it. */
    @Test
    void aValueFromTheEnvironmentIsNamedNotWritten() throws Exception {
        Scenario s = read(GOOD.replace("id = { from = 1, to = 10 }", "id = { env = \"PATH\" }"));
        assertEquals(new vtlab.stack.Mix.Env("PATH", System.getenv("PATH")), s.mix().values().get("id"));
        s.refuseUnsetEnv();
        String text = ScenarioWriter.text(s, List.of(), null, s.csvNames());
        assertTrue(text.contains("id = { env = \"PATH\" }") && !text.contains(System.getenv("PATH")), text);
        Scenario unset = read(GOOD.replace("id = { from = 1, to = 10 }", "id = { env = \"VTLAB_TEST_SURELY_UNSET_42\" }"));
        UsageError e = assertThrows(UsageError.class, unset::refuseUnsetEnv);
        assertEquals(unset.file() + ":37: values.id: the environment variable VTLAB_TEST_SURELY_UNSET_42 is not set: it holds the value {id} is sent with"
                + " (export VTLAB_TEST_SURELY_UNSET_42=...)", e.getMessage());
        assertEquals("37: values.id: env names an environment variable (letters, digits, '_'), not '1 X'",
                refusal(GOOD.replace("id = { from = 1, to = 10 }", "id = { env = \"1 X\" }")));
    }

    @Test
    void aPlaceholderWithoutValuesIsRefused() throws Exception {
        assertTrue(refusal(GOOD.replace("/owners/{id}", "/owners/{owner}")).startsWith("24: requests[1].path: {owner} has no values"));
    }

    @Test
    void aThresholdOnAMetricThatDoesNotExistIsRefusedAtItsLine() throws Exception {
        assertTrue(refusal(GOOD.replace("\"error_rate < 0.1%\"", "\"p98_ms < 10\"")).startsWith("18: slo.thresholds: no metric 'p98_ms'"));
        assertTrue(refusal(GOOD.replace("\"error_rate < 0.1%\"", "\"error_rate is low\"")).startsWith("18: slo.thresholds: term 'error_rate is low' does not parse: write METRIC[MODE] OP NUMBER"));
    }

    /** java.net.http, which sends each request once before load, refuses these names: refused at the file's line instead. */
    @Test
    void aHeaderTheJdksHttpClientDoesNotSendIsRefusedAtItsLine() throws Exception {
        for (String name : List.of("Connection", "Host", "Content-Length", "Expect", "Upgrade", "connection")) {
            String r = refusal(GOOD.replace("headers = { Content-Type = \"text/plain\" }", "headers = { Content-Type = \"text/plain\", " + name + " = \"x\" }"));
            assertTrue(r.startsWith("31: requests[2].headers." + name + ": the JDK's HTTP client, which checks each request before load, does not send it"
                    + " (restricted header name: \"" + name + "\")"), r);
        }
        assertTrue(refusal(GOOD.replace("headers = { Content-Type = \"text/plain\" }", "headers = { \"X Bad\" = \"x\" }"))
                .startsWith("31: requests[2].headers.X Bad: the JDK's HTTP client"), "not a token either");
        assertTrue(refusal(GOOD.replace("headers = { Content-Type = \"text/plain\" }", "headers = { Accept = \"a\\nb\" }"))
                .endsWith("does not send it (invalid header value: \"a\\nb\")"), "a line break in a value, in one line");
        assertEquals(List.of(new vtlab.stack.Request.Header("Content-Type", "text/plain"), new vtlab.stack.Request.Header("Accept", "text/plain")),
                read(GOOD.replace("headers = { Content-Type = \"text/plain\" }", "headers = { Content-Type = \"text/plain\", Accept = \"text/plain\" }"))
                        .mix().entries().get(1).headers(), "others are sent");
    }

    @Test
    void aPercentOnAMetricThatIsNotARatioIsRefusedAtItsLine() throws Exception {
        String r = refusal(GOOD.replace("\"error_rate < 0.1%\"", "\"app_cpu_pct < 50%\""));
        assertTrue(r.startsWith("18: slo.thresholds: 'app_cpu_pct < 50%': a % is written on a ratio (error_rate),"), r);
        assertTrue(r.endsWith("and app_cpu_pct is in % core: write app_cpu_pct < 50 without %"), r);
        assertTrue(refusal(GOOD.replace("\"error_rate < 0.1%\"", "\"p99_ms[virtual] < 5%\"")).contains("p99_ms is in ms"));
    }

    /** A mode the run has no rows of: named with the modes it has, at the threshold's line. */
    @Test
    void aThresholdOnAModeTheRunDoesNotHaveIsRefusedNamingItsModes() throws Exception {
        Scenario s = read(GOOD.replace("\"p99_ms[virtual] <= 100\"", "\"p99_ms[virtal] <= 100\""));
        UsageError e = assertThrows(UsageError.class, () -> s.refuseModes(List.of("platform", "virtual")));
        assertEquals(s.file() + ":17: slo.thresholds: 'p99_ms[virtal] <= 100': the run has no virtal rows (its modes: platform, virtual)", e.getMessage());
        Scenario comparison = read(GOOD);
        e = assertThrows(UsageError.class, () -> comparison.refuseModes(List.of("virtual")));
        assertTrue(e.getMessage().contains(":19: slo.thresholds: 'throughput_rps[virtual] >= 1.2 * throughput_rps[platform]': the run has no platform rows"
                + " (its modes: virtual)"), e.getMessage());
        comparison.refuseModes(List.of("platform", "virtual"));
    }

    /** Planned, the run's modes are its rows': --modes beside the file (or the file's own) decides them. */
    @Test
    void planningRefusesAThresholdOnAModeTheRowsDoNotHave() throws Exception {
        Path f = write(GOOD.replace("fault = [\"stub:latency=2s@5s-10s\"]\n", ""));
        vtlab.core.Options o = vtlab.cli.Main.parse(List.of("--scenario", f.toString(), "--modes", "virtual"));
        UsageError e = assertThrows(UsageError.class, () -> new ScenarioExperiment().plan(o, vtlab.plan.PlanContext.from(o)));
        assertTrue(e.getMessage().endsWith("the run has no platform rows (its modes: virtual)"), e.getMessage());
        vtlab.core.Options both = vtlab.cli.Main.parse(List.of("--scenario", f.toString()));
        assertEquals(2 * 2, new ScenarioExperiment().plan(both, vtlab.plan.PlanContext.from(both)).size(), "two modes at two load points");
    }

    @Test
    void badTomlAndAMissingServiceAreRefused() throws Exception {
        assertTrue(refusal(GOOD.replace("hold = \"5s\"", "hold = \"5s")).startsWith("8: not valid TOML"), refusal(GOOD.replace("hold = \"5s\"", "hold = \"5s")));
        assertTrue(refusal(GOOD.replace("stack = \"servlet\"", "")).startsWith("3: service: say the service"));
        assertTrue(refusal(GOOD.replace("stack = \"servlet\"", "stack = \"servlet\"\napp = \"x.jar\"")).startsWith("3: service: say the service"));
    }

    /** Read, written by the one writer, read again: the same scenario (name, options, requests, values, thresholds). */
    @Test
    void aScenarioWrittenReadsBackTheSame() throws Exception {
        String text = GOOD.replace("[service]\nstack = \"servlet\"", "[service]\nstack = \"servlet\"\nenv = { A = \"1\", B = \"x=y\" }\nport = 9090")
                .replace("hold = \"5s\"", "hold = \"5s\"\nrate-profile = \"0-10s:100,10s-20s:400\"")
                .replace("[[requests]]\nname = \"size\"", "[[requests]]\nname = \"size\"\nexpect-body = \"ok\\\\d+\"")
                + "\n[overrides]\nsomething = \"odd\"\n";
        Scenario s = read(text);
        assertEquals(List.of("A=1", "B=x=y"), s.options().get("env"));
        assertEquals(List.of("odd"), s.options().get("something"));
        assertEquals("ok\\d+", s.mix().entries().get(1).expectBody());
        String written = ScenarioWriter.text(s, List.of("a header"), null, s.csvNames());
        Path again = dir.resolve("again.toml");
        Files.writeString(again, written);
        Scenario t = Scenario.read(again, ScenarioExperiment.metrics());
        assertEquals(s.name(), t.name());
        assertEquals(s.options(), t.options(), written);
        assertEquals(s.mix(), t.mix(), written);
        assertEquals(s.thresholds().stream().map(Threshold::text).toList(), t.thresholds().stream().map(Threshold::text).toList());
        assertEquals(s.csvFiles(), t.csvFiles());
        assertEquals(written, ScenarioWriter.text(t, List.of("a header"), null, t.csvNames()), "written again: the same text");
        assertTrue(written.startsWith("# a header\n"), written);
        // the docs' example files too
        Path docs = Path.of(System.getProperty("vtlab.home", "..")).resolve("docs/scenarios");
        for (String f : List.of("servlet-mix.toml", "servlet-mix-fast.toml", "spring-boot.toml", "command.toml")) {
            Scenario d = Scenario.read(docs.resolve(f), ScenarioExperiment.metrics());
            Files.writeString(dir.resolve(f), ScenarioWriter.text(d, List.of(), d.base(), d.csvNames()));
            Scenario e = Scenario.read(dir.resolve(f), ScenarioExperiment.metrics());
            assertEquals(d.options(), e.options(), f);
            assertEquals(d.mix(), e.mix(), f);
            assertEquals(d.thresholds().stream().map(Threshold::text).toList(), e.thresholds().stream().map(Threshold::text).toList(), f);
        }
    }

    @Test
    void aNoSuchFileIsRefusedInOneLine() {
        UsageError e = assertThrows(UsageError.class, () -> Scenario.read(dir.resolve("none.toml"), ScenarioExperiment.metrics()));
        assertEquals(dir.resolve("none.toml") + ": cannot read it (no such file)", e.getMessage());
    }

    @Test
    void theExampleFilesOfTheDocsRead() throws Exception {
        Path docs = Path.of(System.getProperty("vtlab.home", "..")).resolve("docs/scenarios");
        for (String f : List.of("servlet-mix.toml", "servlet-mix-fast.toml", "spring-boot.toml", "command.toml")) {
            Scenario s = Scenario.read(docs.resolve(f), ScenarioExperiment.metrics());
            assertTrue(s.mix().entries().size() >= 2, f);
        }
    }

    /** A threshold per request name: of a request the mix has, and of a metric measured per request. */
    @Test
    void aThresholdPerRequestNameNamesARequestOfTheMix() throws Exception {
        Scenario sc = read(GOOD.replace("\"error_rate < 0.1%\",", "\"error_rate < 0.1%\",\n  \"p99_ms[virtual, owner] <= 150\","));
        Threshold t = sc.thresholds().stream().filter(x -> x.request() != null).findFirst().orElseThrow();
        assertEquals("owner", t.request());
        assertEquals("virtual", t.mode());
        assertEquals("p99_ms", t.metric());
        String unknown = refusal(GOOD.replace("\"error_rate < 0.1%\",", "\"error_rate < 0.1%\",\n  \"p99_ms[virtual, checkout] <= 150\","));
        assertTrue(unknown.endsWith("slo.thresholds: 'p99_ms[virtual, checkout] <= 150': no request named checkout in the mix (owner, size)"), unknown);
        String metric = refusal(GOOD.replace("\"error_rate < 0.1%\",", "\"error_rate < 0.1%\",\n  \"throughput_rps[virtual, owner] >= 10\","));
        assertTrue(metric.contains("per request name only error_rate, p50_ms, p999_ms, p99_ms"), metric);
    }
}
