package vtlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.data.RunDir;
import vtlab.experiment.registry.Experiments;
import vtlab.load.generator.Generators;
import vtlab.plan.PlanContext;
import vtlab.planning.LabOptions;
import vtlab.planning.RunPlan;
import vtlab.probe.Probes;

/** The help names everything the code has, and nothing it refuses. */
class HelpCommandTest {
    static String run(String... args) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        assertEquals(0, Main.run(List.of(args), new PrintStream(buf)));
        return buf.toString();
    }

    @Test
    void helpNamesEveryRegisteredThing() throws Exception {
        String help = run("--help");
        List<String> missing = new ArrayList<>();
        for (String name : Experiments.all().keySet()) if (!help.contains(name)) missing.add("experiment " + name);
        for (String name : Generators.all().keySet()) if (!help.contains("  " + name + " ")) missing.add("generator " + name);
        for (String name : Probes.all().keySet()) if (!help.contains("  " + name + " ")) missing.add("probe " + name);
        for (var f : RunDir.FILES) if (!help.contains(f.getKey())) missing.add("output " + f.getKey());
        for (var k : vtlab.tier.fault.Fault.kinds()) if (!help.contains("  " + k.name() + " ")) missing.add("fault kind " + k.name());
        for (String cmd : Main.commands(List.of()).keySet()) if (!help.contains("./vtlab " + cmd)) missing.add("command " + cmd);
        for (String opt : LabOptions.GLOBAL) if (!help.contains("--" + opt)) missing.add("option --" + opt);
        for (Opt o : Generators.options()) if (!help.contains("--" + o.name())) missing.add("generator option --" + o.name());
        for (Opt o : PlanContext.LOAD_OPTIONS) if (!help.contains("--" + o.name())) missing.add("load option --" + o.name());
        assertEquals(List.of(), missing);
        assertTrue(help.contains("hikari") && help.contains("[default]"), help);
    }

    /** A flag the parser takes without a value must be an option some command or experiment reads (none declared and then refused). */
    @Test
    void everyFlagIsAnOptionTheLabReads() {
        List<String> known = new ArrayList<>(LabOptions.GLOBAL);
        Experiments.all().values().forEach(e -> e.options().forEach(o -> known.add(o.name())));
        List<String> unread = Main.flags().stream().filter(f -> !known.contains(f)).sorted().toList();
        assertEquals(List.of(), unread, "flags declared but refused by every command");
    }

    /**
     * The lab's own options are declared once (RunOptions, and --generator beside the generators' registry): the run
     * accepts exactly them, the parser takes exactly their flags without a value, and the run's help shows each with its help.
     */
    @Test
    void theLabsOwnOptionsAreTheirDeclarations() throws Exception {
        List<String> names = new ArrayList<>(vtlab.plan.RunOptions.ALL.stream().map(Opt::name).toList());
        names.add(Generators.OPTION.name());
        assertEquals(new java.util.TreeSet<>(names), new java.util.TreeSet<>(LabOptions.GLOBAL));
        List<Opt> declared = new ArrayList<>(vtlab.plan.RunOptions.ALL);
        Experiments.all().values().forEach(e -> declared.addAll(e.options()));
        declared.addAll(PlanContext.LOAD_OPTIONS);
        declared.addAll(Generators.options());
        assertEquals(new java.util.TreeSet<>(declared.stream().filter(o -> o.type() == Opt.Type.FLAG).map(Opt::name).toList()),
                new java.util.TreeSet<>(Main.flags()), "the parser's flags are the options declared as flags");
        String runHelp = run("run", "--help");
        for (Opt o : LabOptions.OWN) {
            assertTrue(runHelp.contains(o.lines().getFirst()), o.lines().getFirst() + " in\n" + runHelp);
        }
    }

    /** An option of a closed set has its words under its help: the run's (the generators' registry's names) and an experiment's. */
    @Test
    void helpListsEachOptionsChoices() throws Exception {
        String runHelp = run("run", "--help"), servlet = run("run", "servlet", "--help");
        assertEquals("choices: " + String.join(", ", Generators.all().keySet()), block(runHelp, "generator").getLast());
        assertEquals("choices: closed, open", block(runHelp, "load-model").getLast());
        assertEquals("choices: platform, virtual, virtual-as-shipped", block(servlet, "modes").getLast());
        List<Opt> declared = new ArrayList<>(LabOptions.OWN);
        declared.addAll(PlanContext.LOAD_OPTIONS);
        declared.addAll(Generators.options());
        List<String> without = new ArrayList<>();
        for (Opt o : declared) {
            if (!o.choices().isEmpty() && !block(runHelp, o.name()).contains("choices: " + String.join(", ", o.choices()))) without.add(o.name());
        }
        for (Opt o : Experiments.byName("servlet").options()) {
            if (!o.choices().isEmpty() && !block(servlet, o.name()).contains("choices: " + String.join(", ", o.choices()))) without.add("servlet " + o.name());
        }
        assertEquals(List.of(), without, "options whose help has not their choices");
    }

    /** An option's lines in a help, stripped: its head ("  --name ...") and the lines indented under it. */
    static List<String> block(String help, String name) {
        List<String> lines = help.lines().toList(), out = new ArrayList<>();
        int at = 0;
        while (at < lines.size() && !lines.get(at).matches("  --" + java.util.regex.Pattern.quote(name) + "( .*)?")) at++;
        assertTrue(at < lines.size(), "--" + name + " in\n" + help);
        out.add(lines.get(at).strip());
        for (int i = at + 1; i < lines.size() && lines.get(i).startsWith("   "); i++) out.add(lines.get(i).strip());
        return out;
    }

    @Test
    void versionIsAFlagAndACommand() throws Exception {
        String v = run("--version");
        assertTrue(v.startsWith("vtlab ") && v.contains("Java " + Runtime.version().feature()), v);
        assertEquals(v.replaceAll("\\(commit [^)]*\\)", ""), run("version").replaceAll("\\(commit [^)]*\\)", ""));
    }

    @Test
    void runHelpIsTheRunsAndNamesTheDemo() throws Exception {
        String global = run("--help"), runHelp = run("run", "--help");
        assertNotEquals(global, runHelp);
        assertEquals(runHelp, run("help", "run"));
        assertTrue(runHelp.startsWith("Usage: ./vtlab run"), runHelp);
        LabOptions.DEMO.forEach((k, v) -> assertTrue(runHelp.contains("--" + k + " " + v), k));
        assertTrue(runHelp.contains("--allow-shared-cpus"));
    }

    /** What --quick does to faults (a hold of its own, the schedules scaled into it) is in its help, with the values planned. */
    @Test
    void faultsHelpSaysWhatQuickDoes() throws Exception {
        String faults = run("run", "faults", "--help");
        Options quick = vtlab.cli.Main.parse(List.of("run", "faults", "--quick"));
        vtlab.plan.Row spike = RunPlan.of(quick, List.of("faults")).rows().stream().filter(r -> r.rateProfile() != null).findFirst().orElseThrow();
        assertTrue(faults.contains("(--quick: " + spike.hold().toSeconds() + "s)"), faults);
        assertTrue(faults.contains("(--quick: " + spike.rateProfile().spec() + ")"), faults);
        assertTrue(faults.contains("(--quick: stub:latency=1900ms@4s-12s,stub:down@4s-8s,db:lock@4s-6s)"), faults);
        assertTrue(faults.contains("the defaults' times x0.4 into --quick's 24s hold (--quick: stub:"), faults);
        assertTrue(faults.contains("--quick keeps a hold of its own"), faults);
        assertTrue(run("run", "--help").contains("faults keeps a hold of its own"));
        // an experiment whose defaults do not plan alone shows what to add
        String ab = run("run", "ab", "--help");
        assertTrue(ab.contains("Example (its defaults need these): ./vtlab run ab --app ") && ab.contains("vtlab-spring-mvc.jar --url '/sleep?ms=50'"), ab);
        assertTrue(!faults.contains("Example ("), "faults plans from its defaults");
    }

    @Test
    void anExperimentsHelpShowsItsOptionsWithTheirDefaults() throws Exception {
        String servlet = run("run", "servlet", "--help");
        for (Opt o : Experiments.byName("servlet").options()) {
            String head = "--" + o.name() + (o.dflt() == null ? "" : " " + o.dflt());
            assertTrue(servlet.contains(head), head + " in\n" + servlet);
        }
        assertTrue(servlet.contains("--load-model closed"), servlet);
        assertTrue(run("run", "thread-cost", "--help").lines().noneMatch(l -> l.contains("--load-model")), "a study takes no load");
        UsageError e = assertThrows(UsageError.class, () -> run("run", "nosuch", "--help"));
        assertTrue(e.getMessage().startsWith("unknown experiment 'nosuch'"), e.getMessage());
    }

    @Test
    void anUnknownCommandListsEveryCommand() {
        UsageError e = assertThrows(UsageError.class, () -> run("frobnicate"));
        for (String cmd : Main.commands(List.of()).keySet()) assertTrue(e.getMessage().contains(cmd), cmd + ": " + e.getMessage());
        assertTrue(e.getMessage().contains("test"));
    }
}
