package vtlab.cli;

import java.io.PrintStream;
import java.util.List;

import vtlab.core.Options;

/** ./vtlab help (and --help): the commands and the options every run takes; ./vtlab list has each experiment's. */
final class HelpCommand implements Command {
    static final String TEXT = """
            vtlab: what flipping a Java service from a platform-thread pool to virtual threads does, measured here.

            Usage:
              ./vtlab run [EXPERIMENT...] [options]   run experiments (no name: a ~3 minute servlet sleep demo)
              ./vtlab run capacity [--of EXP] --slo "p99<100ms,errors<0.1%"
                                                      per thread mode, the highest constant rate meeting the SLO
              ./vtlab ab --app PATH.jar --url PATH    your own service, platform vs virtual threads (a Spring Boot
                                                      jar is switched by the lab, and a tuned variant added; or
                                                      --cmd "..." with --virtual-args/--virtual-env): the thread
                                                      mode proven by thread dumps under load, a verdict in words
                                                      (its options: ./vtlab list; README "Try it on your own service")
              ./vtlab tiers [pg] [stub]               the lab's PostgreSQL (seeded as spring-mvc declares it) and
                                                      stub on their CPUs until Ctrl-C, printing the --env for ab
              ./vtlab list                            experiments with their axes and defaults, stacks, probes
              ./vtlab list columns                    every matrix.csv column with its unit and meaning
              ./vtlab doctor                          what the lab found: JDKs, generator, CPUs, limits
              ./vtlab dump [PID]                      JSON thread dump of a running SUT (virtual threads included),
                                                      summarised: virtual threads by state, top stacks
              ./vtlab report RUN_DIR                  (re)write RUN_DIR/report.html and charts/ (also done after every run)
              ./vtlab compare RUN_A RUN_B [--out F]   the same rows of two runs side by side with deltas (+ compare.html),
                [--max-regression 5%]                 each said beyond or within the reps' noise; exit 99 when a row
                                                      got slower by more than that and beyond the noise
              ./vtlab test                            the whole test suite (what CI runs)

            Run options (each experiment adds its own axes: see ./vtlab list):
              --modes platform,virtual   thread modes
              --conc 400,1000            concurrent connections (closed model: each sends its next request when
                                         the answer arrives)
              --reps N                   repetitions of each row       --warmup 10s  --hold 20s
              --warmup-max 120s          the warm-up goes on in 5 s slices after --warmup until two slices agree
                                         within 5% and the JIT used at most 2% of a core in both, at most
                                         this long (on a one-CPU SUT the JIT needs ~50 s for the hello servlet,
                                         over a minute for Spring); rows that never settle are flagged
                                         warmup-not-steady
              --quick                    short smoke profile (3 s warm-up, 5 s hold, 1 rep, no --warmup-max)
              --jdk PATH|MAJOR           JDK for the SUT, repeatable (default: the lab's JDK)
              --jvm-args "..."           SUT JVM options (default -Xms512m -Xmx512m)
              --carriers auto|N          virtual-thread carriers of the SUT (jdk.virtualThreadScheduler.parallelism);
                                         auto = one per SUT CPU, but 2 on a one-CPU SUT (a lone carrier stalls
                                         behind Tomcat's poller, GC and JIT; see README)
              --generator wrk            load generator (installed when missing): wrk, hey (closed), oha (open),
                                         k6 (both; the seed rig's tool)
              --ramp 8s                  k6 only: the seed rig's ramping-vus profile, up to --conc over this
                                         long before the hold and down after it; only the hold is measured
              --load-model closed        closed: --conc connections, each sending when its answer arrives;
                                         open: --rates req/s on schedule (--conc is refused); oha by default,
                                         latency from each intended send time; k6: from the actual send, with
                                         what no free VU could send counted as dropped
              --rates N,...              open model: target rates, req/s (the axis --conc is in the closed model)
              --max-in-flight 10000      open model: most requests in flight; open rows carry it as concurrency
                                         (oha opens 200 ms of arrivals' worth of connections under it and
                                         queues the rest, counting their wait; k6: its maxVUs)
              --probes cpu,rss,threads,cpu-threads,gc,jfr-pinning   probes, by name (./vtlab list); --no-probes
                                         for none; nmt is opt-in (its cost: ./vtlab run probe-cost --probes cpu,nmt)
                                         options after a colon, e.g. jfr-pinning:threshold=5ms
              --pin-threshold 0ms        shortest pin JFR records (jdk.VirtualThreadPinned; JFR's default 20 ms);
                                         short for --probes ...,jfr-pinning:threshold=0ms
              --cpus-app 0 --cpus-load 1 --cpus-pg 1 --cpus-stub 1   core map overrides (taskset lists)
              --port 18080               SUT port on 127.0.0.1
              --fresh-sut                a new SUT JVM for every row (default: consecutive rows with the same
                                         SUT configuration share one warm JVM; each row still warms up)
              --out results              where run folders go
              --fail-on "p99_ms>200,error_rate>0.01"   thresholds per row (k6's): a term that holds is a breach,
                                         listed in summary.txt/summary.json; exit 99. Terms: p50..p999, max, mean
                                         (us/ms/s; p99_ms is ms), errors/error_rate (ratio or %), rps; > >= < <=

            Output: results/<UTC time>-<experiments>/ with matrix.csv (the seed rig's 23 columns, then vtlab's),
            environment.json, summary.txt and raw/ (generator output, SUT logs, runtime-info); results/latest
            points at the newest. Each row is checked against its theoretical bound and Little's law, and flagged
            when the generator saturated its cores. summary.json: per scenario and mode, mean, 95% CI and reps.

            Exit codes: 0 every row ok; 1 some rows failed (the run finished; wins over 99); 2 bad input, or a run
            folder report/compare cannot read; 99 thresholds breached (--fail-on, compare --max-regression);
            130 interrupted.
            """;


    @Override
    public String name() {
        return "help";
    }

    @Override
    public int run(Options o, List<String> args, PrintStream out) {
        out.print(TEXT);
        return 0;
    }
}
