package vtlab.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.data.LatencyHistogram;
import vtlab.tier.CoreMap;
import vtlab.tier.TierProcess;
import vtlab.tier.host.Host;
import vtlab.tier.host.HostProcess;
import vtlab.tier.host.HostRun;

/**
 * wrk from several load agents (--hosts: the topology's load hosts) as one generator. The row's connections are split
 * between them ({@link LoadAgents#connections}), every agent is started at once on its host, pinned to its CPUs there,
 * against the SUT's address; each one's output comes back into raw/STEM.agentI.wrk.txt as it is written and is
 * parsed here into its own histogram (raw/STEM.agentI.wrk.hlog). The row's latencies are those of the agents'
 * histograms added ({@link LoadAgents#merge}: the percentiles of the union of every request, never an average of
 * percentiles), its rate the sum of the agents' rates, its errors theirs added, its per-second counts theirs added
 * second by second; raw/STEM.wrk.txt says what each agent did. An agent that fails fails the row with its name.
 * wrk must be on each agent host's PATH (a Debian package there: apt-get install wrk), with taskset and setsid.
 */
public final class WrkAgents implements Generator {
    /** A load agent: its name in raw/ and in messages, its host, the CPUs it is pinned to there. */
    public record Agent(String name, Host host, String cpus) {}

    /** What an agent's host must have on its PATH. */
    static final List<String> TOOLS = List.of("wrk", "taskset", "setsid");
    private static final Duration SHORT = Duration.ofSeconds(30);

    private final WrkGenerator wrk;
    private final HostRun run;
    private final List<Agent> agents;

    /** @param wrk the run's wrk, configured (its per-second switch applies to every agent) */
    public WrkAgents(Generator wrk, HostRun run, List<Agent> agents) {
        if (!(wrk instanceof WrkGenerator w)) throw new IllegalArgumentException("load agents run wrk, not " + wrk.name());
        if (agents.isEmpty()) throw new IllegalArgumentException("no load agent");
        this.wrk = w;
        this.run = run;
        this.agents = List.copyOf(agents);
    }

    public List<Agent> agents() {
        return agents;
    }

    @Override
    public String name() {
        return wrk.name();
    }

    @Override
    public String description() {
        return wrk.description() + ", from " + agents.size() + " load agents, histograms merged";
    }

    /** Each agent's host has wrk, taskset and setsid on its PATH, or the run is refused naming the agent and what it lacks. */
    @Override
    public void ensureAvailable() throws UsageError {
        for (Agent a : agents) {
            List<String> missing;
            try {
                missing = a.host().missing(TOOLS);
            } catch (IOException e) {
                throw new UsageError("load agent " + a.name() + " (" + a.host().name() + "): " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new UsageError("interrupted");
            }
            if (!missing.isEmpty()) {
                throw new UsageError("load agent " + a.name() + " (" + a.host().name() + ") has no " + String.join(", ", missing)
                        + " on its PATH: install it there (wrk: apt-get install wrk; taskset and setsid: util-linux)");
            }
        }
    }

    /** The first agent's wrk -v, and how many agents there are. */
    @Override
    public String version() {
        Agent a = agents.getFirst();
        try {
            String v = a.host().output(List.of("sh", "-c", "wrk -v 2>&1 | head -n 1"), SHORT).strip().replaceAll("\\s+Copyright.*", "");
            return v + " on " + agents.size() + " load agents (" + String.join(", ", agents.stream().map(x -> x.host().name()).toList()) + ")";
        } catch (IOException e) {
            return "wrk on " + agents.size() + " load agents (version unknown: " + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "wrk";
        }
    }

    @Override
    public java.util.Set<LoadSeries.Kind> seriesKinds() {
        return wrk.seriesKinds();
    }

    @Override
    public List<Opt> options() {
        return wrk.options();
    }

    @Override
    public Generator configure(Options o) throws UsageError {
        wrk.configure(o);
        return this;
    }

    /** One agent's share of the load: its connections, its CPUs (one wrk thread per CPU, at most one per connection). */
    static LoadSpec share(LoadSpec s, int connections, String cpus) {
        return new LoadSpec(s.url(), s.request(), connections, CoreMap.parse(cpus, Integer.MAX_VALUE).length, s.duration(), s.timeout(),
                cpus, s.rawDir(), s.stem(), s.model(), s.rate(), s.rateOnly(), s.profile(), s.bursts());
    }

    @Override
    public RunningLoad start(LoadSpec s) throws IOException {
        if (s.request().body() != null) throw new IOException("load agents do not send request bodies yet");
        if (!s.secretHeaderEnv().isEmpty()) throw new IOException("load agents do not send secret headers yet");
        List<Integer> split = LoadAgents.connections(s.connections(), agents.size());
        Files.createDirectories(s.rawDir());
        List<Part> parts = new ArrayList<>();
        try {
            for (int i = 0; i < agents.size(); i++) {
                Agent a = agents.get(i);
                String stem = s.stem() + "." + a.name();
                LoadSpec mine = share(s, split.get(i), a.cpus());
                Path lua = s.rawDir().resolve(stem + ".wrk.lua");
                Files.writeString(lua, wrk.script(mine, null));
                List<String> cmd = WrkGenerator.command("wrk", mine, run.stageContent(a.host(), lua, ".wrk.lua"));
                Files.writeString(s.rawDir().resolve(stem + ".wrk.cmd"), "# on " + a.host().name() + "\n" + String.join(" ", cmd) + "\n");
                Path out = s.rawDir().resolve(stem + ".wrk.txt");
                Files.deleteIfExists(out);
                parts.add(new Part(new Share(a, split.get(i), out, s.rawDir().resolve(stem + ".wrk.hlog")), run.start(a.host(), stem + ".wrk", cmd, null, out)));
            }
            List<TierProcess> procs = new ArrayList<>();
            for (Part p : parts) procs.add(TierProcess.on(run.files(p.share().agent().host()), p.process().pid(), p.process()::alive));
            return new Running(s, parts, new UntilOneFails(TierProcess.group(procs), parts));
        } catch (IOException | InterruptedException | RuntimeException e) {
            stopAll(parts);
            if (e instanceof InterruptedException) Thread.currentThread().interrupt();
            throw e instanceof IOException io ? io : new IOException("load agents: " + e.getMessage(), e);
        }
    }

    /** An agent's share of a load: its connections, its output here, where its histogram goes. */
    record Share(Agent agent, int connections, Path out, Path hlog) {}

    /** An agent's share under way: its process there. */
    record Part(Share share, HostProcess process) {}

    /**
     * The agents as the row's load tier, alive while any runs and none has failed: an agent that fails (its host lost)
     * ends the hold at once instead of at its planned end, since it fails the row anyway.
     */
    private record UntilOneFails(TierProcess agents, List<Part> parts) implements TierProcess {
        @Override
        public boolean alive() {
            return agents.alive() && parts.stream().map(p -> p.process().client()).noneMatch(c -> !c.isAlive() && c.exitValue() != 0);
        }

        @Override
        public long pid() {
            return agents.pid();
        }

        @Override
        public java.util.Optional<ProcessHandle> local() {
            return agents.local();
        }

        @Override
        public String proc(String file) throws IOException {
            return agents.proc(file);
        }

        @Override
        public List<TierProcess> members() {
            return agents.members();
        }
    }

    private void stopAll(List<Part> parts) {
        for (Part p : parts) {
            try {
                run.stop(p.process());
            } catch (IOException e) {
                System.err.println("vtlab: " + e.getMessage() + " (the run's end tries again)");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private final class Running implements RunningLoad {
        private final LoadSpec spec;
        private final List<Part> parts;
        private final TierProcess process;

        Running(LoadSpec spec, List<Part> parts, TierProcess process) {
            this.spec = spec;
            this.parts = parts;
            this.process = process;
        }

        @Override
        public TierProcess process() {
            return process;
        }

        /**
         * Every agent's end, each parsed; the first that failed fails the load with its name (an agent whose host was
         * lost first of all: the others, stopped then, fail because of it); then the merge.
         */
        @Override
        public LoadResult await() throws LoadException, InterruptedException {
            List<LoadResult> results = new ArrayList<>();
            LoadException failed = null;
            // one failed before the end: the others need not run it out, and its failure is the row's, not theirs
            List<Part> early = parts.stream().filter(p -> !p.process().client().isAlive() && p.process().client().exitValue() != 0).toList();
            if (!early.isEmpty()) stopAll(parts);
            try {
                for (Part p : parts) {
                    Share a = p.share();
                    try {
                        results.add(new ToolRun("wrk", p.process().client(), a.out(), (text, raw) -> WrkGenerator.parse(text, raw, a.hlog())).await());
                    } catch (LoadException e) {
                        if (failed == null || !early.isEmpty() && p == early.getFirst()) {
                            failed = new LoadException("load agent " + a.agent().name() + " (" + a.agent().host().name() + "): " + e.getMessage());
                        }
                    }
                }
            } finally {
                stopAll(parts); // gone already when they ended: their pid files removed; else stopped
            }
            for (Part p : parts) {
                String lost = p.process().lost();
                if (lost != null) throw new LoadException("load agent " + p.share().agent().name() + " (" + p.share().agent().host().name() + "): " + lost);
            }
            if (failed != null) throw failed;
            return merge(spec, parts.stream().map(Part::share).toList(), results);
        }
    }

    /**
     * The agents' results as the row's: requests, errors and bytes added, the rate the sum of the agents' rates (the
     * hold given as requests over that rate), latencies from the agents' histograms added; raw/STEM.wrk.txt says
     * what each did. A warm-up slice (rate only) has no histograms to merge.
     */
    static LoadResult merge(LoadSpec s, List<Share> parts, List<LoadResult> results) throws LoadException {
        long requests = 0, connect = 0, read = 0, write = 0, timeout = 0, status = 0, bytes = 0;
        double rps = 0, longest = 0;
        for (LoadResult r : results) {
            requests += r.requests();
            connect += r.errConnect();
            read += r.errRead();
            write += r.errWrite();
            timeout += r.errTimeout();
            status += r.errStatus();
            bytes += r.bytes();
            rps += r.rps();
            longest = Math.max(longest, r.durationS());
        }
        double duration = rps > 0 ? requests / rps : longest;
        Path summary = s.rawDir().resolve(s.stem() + ".wrk.txt");
        StringBuilder text = new StringBuilder("# wrk from " + parts.size() + " load agents, connections split; the row's latencies are"
                + " their histograms added (vtlab.load.LoadAgents.merge), its rate the sum of theirs\n");
        Map<String, Path> hlogs = new java.util.LinkedHashMap<>();
        for (int i = 0; i < parts.size(); i++) {
            Share p = parts.get(i);
            LoadResult r = results.get(i);
            text.append(String.format(Locale.ROOT, "%s %s cpus %s: %d connections, %d requests in %.3f s (%.1f req/s), %d errors, p99 %.1f ms, raw %s%n",
                    p.agent().name(), p.agent().host().name(), p.agent().cpus(), p.connections(), r.requests(), r.durationS(), r.rps(),
                    r.errors(), r.p99Ms(), p.out().getFileName()));
            if (!s.rateOnly()) {
                if (r.histogram() == null) throw new LoadException("load agent " + p.agent().name() + " (" + p.agent().host().name()
                        + "): no whole histogram (wrk's walk stopped at its budget): the agents' latencies cannot be merged");
                hlogs.put(p.agent().name(), r.histogram());
            }
        }
        try {
            if (s.rateOnly()) {
                Files.writeString(summary, text.append(String.format(Locale.ROOT, "all: %d requests, %.1f req/s (a warm-up: rate only)%n", requests, rps)));
                return new LoadResult(requests, duration, 0, 0, 0, 0, 0, 0, 0, connect, read, write, timeout, status, bytes, summary);
            }
            LoadAgents.Merged m = LoadAgents.merge(hlogs);
            Path hlog = s.rawDir().resolve(s.stem() + ".wrk.hlog");
            LoadResult merged = LoadResult.fromHistogram(m.histogram(), hlog, requests, duration, connect, read, write, timeout, status, bytes,
                    summary, null, LoadSeries.sum(results.stream().map(LoadResult::series).toList()));
            text.append(String.format(Locale.ROOT, "merged: %d requests, %.1f req/s, histogram %d = %s, p50 %.1f ms, p99 %.1f ms, raw %s%n",
                    requests, rps, m.total(), String.join(" + ", m.countByAgent().values().stream().map(String::valueOf).toList()),
                    LatencyHistogram.ms(m.histogram(), 50), LatencyHistogram.ms(m.histogram(), 99), hlog.getFileName()));
            Files.writeString(summary, text);
            return merged;
        } catch (IOException e) {
            throw new LoadException("load agents: " + e.getMessage());
        }
    }
}
