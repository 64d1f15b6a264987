package vtlab.plan;

import java.util.List;

import vtlab.core.Opt;
import vtlab.proc.CoreMap;

/**
 * The lab's own options, whichever experiments run (each experiment declares its own besides, and every load
 * experiment {@link PlanContext#LOAD_OPTIONS}): declared once here, with their type, default, help and, where a
 * scenario file may set one, its table. The run's help is rendered from them, the run accepts them (cli's global
 * set), and a scenario file takes the ones with a table as its keys: a new option here shows up in all three.
 * --generator is the generators' registry's (vtlab.load.generator.Generators.OPTION, a floor above: its choices are
 * the registry's names), which cli and the scenario file take beside these.
 */
public final class RunOptions {
    private RunOptions() {}

    public static final Opt HELP = Opt.flag("help", "this help (also -h)");
    public static final Opt VERSION = Opt.flag("version", "vtlab's version and commit, and the JDK it runs on");
    public static final Opt QUICK = Opt.flag("quick", "short smoke profile (3 s warm-up, 5 s hold, 1 rep, no --warmup-max);\n"
            + "faults keeps a hold of its own, its faults and spike scaled into it\n(./vtlab run faults --help)");
    public static final Opt JDK = Opt.of("jdk", null, "PATH|MAJOR: JDK for the SUT, repeatable (default: the lab's JDK)")
            .typed(Opt.Type.STRINGS).inScenario("run");
    public static final Opt JVM_ARGS = Opt.of("jvm-args", null, "\"...\": SUT JVM options (default -Xms512m -Xmx512m)").inScenario("service");
    public static final Opt CARRIERS = Opt.of("carriers", "auto", "auto|N: virtual-thread carriers of the SUT (jdk.virtualThreadScheduler.parallelism);\n"
            + "auto = one per SUT CPU, but 2 on a one-CPU SUT (a lone carrier stalls\n"
            + "behind Tomcat's poller, GC and JIT; docs/results.md)").typed(Opt.Type.INT).inScenario("run");
    public static final Opt WARMUP_MAX = Opt.of("warmup-max", "120s", "the warm-up goes on in 5 s slices after --warmup until the trend of\n"
            + "the last 4 is flat (a slope within 2% a slice either way, or none\n"
            + "beyond the noise at a CV of at most 5%) and the JIT used at most 2%\n"
            + "of a core in the last two, at most this long (on a one-CPU SUT the\n"
            + "JIT needs ~50 s for the hello servlet, over a minute for Spring); rows\n"
            + "that never settle are flagged warmup-not-steady, warmup_trend says why").quick("0s").inScenario("load");
    public static final Opt PROBES = Opt.of("probes", null, "a,b: probes, by name (see Probes below; default: the ones marked so);\n"
            + "--no-probes for none; options after a colon, e.g. jfr-pinning:threshold=5ms;\n"
            + "+a adds to the default set, -a takes one out: --probes +profile (where each\n"
            + "request's time goes, flame graphs; on by default in ab)").typed(Opt.Type.STRINGS).inScenario("run");
    public static final Opt NO_PROBES = Opt.flag("no-probes", "no probe at all");
    public static final Opt PIN_THRESHOLD = Opt.of("pin-threshold", null, "shortest pin JFR records (jdk.VirtualThreadPinned; JFR's default 20 ms),\n"
            + "e.g. 0ms; short for --probes ...,jfr-pinning:threshold=0ms");
    public static final Opt CPUS_APP = CoreMap.CPUS_APP, CPUS_LOAD = CoreMap.CPUS_LOAD, CPUS_PG = CoreMap.CPUS_PG, CPUS_STUB = CoreMap.CPUS_STUB;
    public static final Opt ALLOW_SHARED_CPUS = Opt.flag("allow-shared-cpus", "let the SUT and the generator share CPUs (refused otherwise; needed on a\n"
            + "one-CPU machine); every row is then flagged shared-cpu");
    /** The SUT's port when --port is not given: a builder that reads no options (vtlab.run.Runner) starts from it too. */
    public static final int DEFAULT_PORT = 18080;
    public static final Opt PORT = Opt.of("port", Integer.toString(DEFAULT_PORT), "SUT port on 127.0.0.1 (--hosts: on the SUT's host's address)").typed(Opt.Type.INT).inScenario("service");
    public static final Opt HOSTS = Opt.of("hosts", null, "hosts.toml: the SUT, pg and the stub on hosts of their own, load from the file's agents,\n"
            + "over ssh (the experiments ./vtlab list marks [across hosts]; closed\n"
            + "model with wrk: connections split; open with oha or vegeta at rate/n or\n"
            + "k6 segments; histograms merged; probes read where each process runs,\n"
            + "jcmd/JFR/NMT on the SUT's host; not yet: faults, jvm, ctxsw); ./vtlab hosts up N\n"
            + "writes one for test hosts on this machine");
    public static final Opt FRESH_SUT = Opt.flag("fresh-sut", "a new SUT JVM for every row (default: consecutive rows with the same\n"
            + "SUT configuration share one warm JVM; each row still warms up)").inScenario("run");
    public static final Opt RESEED = Opt.flag("reseed", "rebuild the Spring rig's PostgreSQL seed data before the run");
    public static final Opt OUT = Opt.of("out", null, "where run folders go (default: the lab's results/)");
    public static final Opt FAIL_ON = Opt.of("fail-on", null, "\"p99_ms>200,error_rate>0.01\": thresholds per row (k6's): a term that holds is a breach,\n"
            + "listed in summary.txt/summary.json; exit 99. Terms: p50..p999, max, mean\n"
            + "(us/ms/s; p99_ms is ms), errors/error_rate (ratio or %), rps; > >= < <=").inScenario("slo");

    /** Every option of the lab's own, in the order the run's help shows them (--help and --version first). */
    public static final List<Opt> ALL = List.of(HELP, VERSION, QUICK, JDK, JVM_ARGS, CARRIERS, WARMUP_MAX, PROBES, NO_PROBES,
            PIN_THRESHOLD, CPUS_APP, CPUS_LOAD, CPUS_PG, CPUS_STUB, ALLOW_SHARED_CPUS, PORT, HOSTS, FRESH_SUT, RESEED, OUT, FAIL_ON);
}
