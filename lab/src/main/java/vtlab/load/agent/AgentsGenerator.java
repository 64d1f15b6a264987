package vtlab.load.agent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.data.AgentLoad;
import vtlab.data.LatencyHistogram;
import vtlab.load.Generator;
import vtlab.load.LoadAgent;
import vtlab.load.LoadModel;
import vtlab.load.LoadResult;
import vtlab.load.LoadSeries;
import vtlab.load.LoadSpec;
import vtlab.load.ToolRun;
import vtlab.proc.CoreMap;
import vtlab.tier.host.TierProcess;
import vtlab.tier.host.HostProcess;
import vtlab.tier.host.HostRun;

/**
 * Several load agents (--hosts: the topology's load hosts) run as one generator. What each agent runs for its share is
 * its tool's, declared beside the tool in vtlab.load.generator (WrkAgents: the connections split; K6Agents: k6's own
 * execution segments; OhaAgents: rate/n), which builds its agents on this class; the rest is here, beneath the tools
 * and knowing none of them, the same for every tool: each agent's files staged on its host before any agent starts,
 * then all started at once, pinned to its CPUs there, against the SUT's address; each one's output streamed into
 * raw/STEM.agentI.TOOL.txt, its other outputs copied back beside it and parsed here into its own histogram; the hold
 * ended as soon as one fails, and that one failing the row with its name. The row's result is theirs merged
 * ({@link #merge}): latencies from their histograms added ({@link LoadAgents#merge}), rate the sum of theirs, errors
 * and drops added, their seconds added second by second, and what each did kept for the checks (an agent behind).
 */
public abstract class AgentsGenerator implements Generator {
    protected static final Duration SHORT = Duration.ofSeconds(30), COPY = Duration.ofMinutes(5);

    protected final Generator tool;
    protected final HostRun run;
    protected final List<LoadAgent> agents;

    protected AgentsGenerator(Generator tool, HostRun run, List<LoadAgent> agents) {
        if (agents.isEmpty()) throw new IllegalArgumentException("no load agent");
        this.tool = tool;
        this.run = run;
        this.agents = List.copyOf(agents);
    }

    public List<LoadAgent> agents() {
        return agents;
    }

    /** What an agent's host must have on its PATH. */
    protected abstract List<String> needs();

    /** How to install what {@link #needs} names, for the refusal. */
    protected abstract String install();

    /** The tool's version, as the first agent runs it. */
    protected abstract String toolVersion() throws IOException, InterruptedException;

    /**
     * One agent's share of the load (agent i of {@link #agents}, from 0), its files staged on its host: what it runs
     * there, and how its output becomes its result.
     */
    protected abstract Job job(LoadSpec s, int i, LoadAgent a) throws IOException, InterruptedException;

    /** An agent's share of a load: connections (closed) or in-flight cap (open), its rate (open), in words, its output here. */
    public record Share(LoadAgent agent, int connections, Double rate, String words, Path out) {}

    /** What an agent's share is parsed with, once it ended: startedMs is when the agents were started, on this machine's clock. */
    public interface Parser {
        LoadResult parse(String text, Path raw, long startedMs) throws LoadException;
    }

    /** What an agent runs for its share (on its host, paths there) and how its output is read. */
    public record Job(Share share, List<String> command, Parser parser) {}

    @Override
    public String name() {
        return tool.name();
    }

    @Override
    public boolean sendsMix() {
        return tool.sendsMix();
    }

    @Override
    public String description() {
        return tool.description() + ", from " + agents.size() + " load agents, histograms merged";
    }

    /** Each agent's host has what the tool needs on its PATH, or the run is refused naming the agent and what it lacks. */
    @Override
    public void ensureAvailable() throws UsageError {
        for (LoadAgent a : agents) {
            List<String> missing;
            try {
                missing = a.host().missing(needs());
            } catch (IOException e) {
                throw new UsageError("load agent " + a.name() + " (" + a.host().name() + "): " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new UsageError("interrupted");
            }
            if (!missing.isEmpty()) {
                throw new UsageError("load agent " + a.name() + " (" + a.host().name() + ") has no " + String.join(", ", missing)
                        + " on its PATH: install it there (" + install() + ")");
            }
        }
    }

    /** The tool's version, and how many agents run it where. */
    @Override
    public String version() {
        String where = agents.size() + " load agents (" + String.join(", ", agents.stream().map(x -> x.host().name()).toList()) + ")";
        try {
            return toolVersion() + " on " + where;
        } catch (IOException e) {
            return tool.name() + " on " + where + " (version unknown: " + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return tool.name();
        }
    }

    @Override
    public List<vtlab.data.Column> columns() {
        return tool.columns();
    }

    @Override
    public Set<LoadSeries.Kind> seriesKinds() {
        return tool.seriesKinds();
    }

    @Override
    public Set<LoadModel> models() {
        return tool.models();
    }

    @Override
    public boolean followsRateProfile() {
        return tool.followsRateProfile();
    }

    @Override
    public int inFlightLimit(Double rate, int connections) {
        return tool.inFlightLimit(rate, connections);
    }

    @Override
    public List<Opt> options() {
        return tool.options();
    }

    @Override
    public Generator configure(Options o) throws UsageError {
        tool.configure(o);
        return this;
    }

    /** One agent's share of the load: its connections, its rate (open), its CPUs (a thread per CPU, at most one per connection). */
    public static LoadSpec share(LoadSpec s, int connections, Double rate, String cpus) {
        return new LoadSpec(s.url(), s.request(), connections, CoreMap.parse(cpus, Integer.MAX_VALUE).length, s.duration(), s.timeout(),
                cpus, s.rawDir(), s.stem(), s.model(), rate, s.rateOnly(), s.profile(), s.bursts(), s.mix());
    }

    /** The host's file at path copied back to a file here (one the tool may not have written: skipped when absent, unless required). */
    protected static void fetch(LoadAgent a, String path, Path file, boolean required) throws LoadException {
        try {
            if (!required && !a.host().run(List.of("test", "-f", path), SHORT).ok()) return;
            a.host().copyFrom(path, file, COPY);
        } catch (IOException e) {
            throw new LoadException("cannot copy " + path + " back: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LoadException("interrupted while copying " + path + " back");
        }
    }

    @Override
    public RunningLoad start(LoadSpec s) throws IOException, LoadException {
        if (s.request().body() != null) throw new IOException("load agents do not send request bodies yet");
        if (!s.secretHeaderEnv().isEmpty()) throw new IOException("load agents do not send secret headers or values from the environment yet");
        Files.createDirectories(s.rawDir());
        List<Part> parts = new ArrayList<>();
        try {
            // every agent's files there first: the starts follow each other closely, none waiting on another's copy
            List<Job> jobs = new ArrayList<>();
            for (int i = 0; i < agents.size(); i++) jobs.add(job(s, i, agents.get(i)));
            long startedMs = System.currentTimeMillis();
            for (Job j : jobs) {
                Share sh = j.share();
                String stem = s.stem() + "." + sh.agent().name() + "." + name(); // its pid file there: STEM.agentI.TOOL.pid
                Files.writeString(s.rawDir().resolve(stem + ".cmd"), "# on " + sh.agent().host().name() + "\n" + String.join(" ", j.command()) + "\n");
                Files.deleteIfExists(sh.out());
                parts.add(new Part(j, run.start(sh.agent().host(), stem, j.command(), null, sh.out())));
            }
            List<TierProcess> procs = new ArrayList<>();
            for (Part p : parts) procs.add(TierProcess.on(run.files(p.agent().host()), pid(p), p.process()::alive));
            return new Running(s, parts, startedMs, new UntilOneFails(TierProcess.group(procs), parts));
        } catch (LoadException e) {
            stopAll(parts);
            throw e;
        } catch (IOException | InterruptedException | RuntimeException e) {
            stopAll(parts);
            if (e instanceof InterruptedException) Thread.currentThread().interrupt();
            throw e instanceof IOException io ? io : new IOException("load agents: " + e.getMessage(), e);
        }
    }

    /** An agent's share under way: its process there. */
    record Part(Job job, HostProcess process) {
        LoadAgent agent() {
            return job.share().agent();
        }
    }

    /**
     * An agent's pid there (read from its pid file through the host's session); a host lost while it is read fails the
     * load naming the agent and its host, as a host lost in the hold does.
     */
    private static long pid(Part p) throws IOException, InterruptedException, LoadException {
        try {
            return p.process().pid();
        } catch (IOException e) {
            throw lostOr(p.agent(), e);
        }
    }

    /** The agent's host lost (it does not answer a new session): the load fails naming both; else the error as it is. */
    public static LoadException lostOr(LoadAgent a, IOException e) throws IOException, InterruptedException {
        String why = a.host().unreachable();
        if (why == null) throw e;
        return new LoadException("load agent " + a.name() + " (" + a.host().name() + "): host unreachable: " + why);
    }

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
        private final long startedMs;
        private final TierProcess process;

        Running(LoadSpec spec, List<Part> parts, long startedMs, TierProcess process) {
            this.spec = spec;
            this.parts = parts;
            this.startedMs = startedMs;
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
                    Share a = p.job().share();
                    try {
                        results.add(new ToolRun(name(), p.process().client(), a.out(), (text, raw) -> p.job().parser().parse(text, raw, startedMs)).await());
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
                if (lost != null) throw new LoadException("load agent " + p.agent().name() + " (" + p.agent().host().name() + "): " + lost);
            }
            if (failed != null) throw failed;
            return merge(spec, name(), parts.stream().map(p -> p.job().share()).toList(), results);
        }
    }

    /**
     * A mix's requests apart, the agents' added: for each request name every agent measured, its counts added and its
     * histograms merged exactly (beside the row's: STEM.TOOL.NAME.hlog); empty unless every agent measured them.
     */
    static List<LoadResult.ByRequest> byRequest(Path hlog, List<LoadResult> results) throws IOException, LoadException {
        if (results.isEmpty() || results.stream().anyMatch(r -> r.byRequest().isEmpty())) return List.of();
        List<LoadResult.ByRequest> out = new ArrayList<>();
        for (LoadResult.ByRequest first : results.getFirst().byRequest()) {
            Map<String, Path> hlogs = new LinkedHashMap<>();
            long attempted = 0, errors = 0;
            for (int i = 0; i < results.size(); i++) {
                for (LoadResult.ByRequest b : results.get(i).byRequest()) {
                    if (!b.name().equals(first.name())) continue;
                    hlogs.put("agent" + (i + 1), b.histogram());
                    attempted += b.attempted();
                    errors += b.errors();
                }
            }
            String f = hlog.getFileName().toString();
            Path to = hlog.resolveSibling(f.substring(0, f.length() - ".hlog".length()) + "." + first.name() + ".hlog");
            out.add(LoadResult.ByRequest.of(first.name(), attempted, errors, LoadAgents.merge(hlogs).histogram(), to));
        }
        return out;
    }

    /**
     * The agents' results as the row's: requests, errors, bytes and drops added, the rate the sum of the agents' rates
     * (the hold given as requests over that rate), latencies from the agents' histograms added, their seconds added
     * second by second, and what each did kept for the checks; raw/STEM.TOOL.txt says what each did. A warm-up slice
     * (rate only) has no histograms to merge.
     */
    public static LoadResult merge(LoadSpec s, String tool, List<Share> parts, List<LoadResult> results) throws LoadException {
        long requests = 0, connect = 0, read = 0, write = 0, timeout = 0, status = 0, bytes = 0;
        Long dropped = null;
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
            if (r.dropped() != null) dropped = (dropped == null ? 0 : dropped) + r.dropped();
        }
        double duration = rps > 0 ? requests / rps : longest;
        Path summary = s.rawDir().resolve(s.stem() + "." + tool + ".txt");
        StringBuilder text = new StringBuilder("# " + tool + " from " + parts.size() + " load agents, " + (s.rate() == null ? "connections split"
                : tool.equals("k6") ? "each its k6 execution segment" : "each at rate/" + parts.size())
                + "; the row's latencies are their histograms added (vtlab.load.agent.LoadAgents.merge), its rate the sum of theirs\n");
        Map<String, Path> hlogs = new LinkedHashMap<>();
        List<AgentLoad> did = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            Share p = parts.get(i);
            LoadResult r = results.get(i);
            text.append(String.format(Locale.ROOT, "%s %s cpus %s: %s, %d requests in %.3f s (%.1f req/s), %d errors%s, p99 %.1f ms, raw %s%n",
                    p.agent().name(), p.agent().host().name(), p.agent().cpus(), p.words(), r.requests(), r.durationS(), r.rps(),
                    r.errors(), r.dropped() == null ? "" : ", " + r.dropped() + " dropped", r.p99Ms(), p.out().getFileName()));
            did.add(new AgentLoad(p.agent().name(), p.agent().host().name(), p.connections(), p.rate(), r.requests(), r.attempted(),
                    r.durationS(), r.dropped()));
            if (!s.rateOnly()) {
                if (r.histogram() == null) throw new LoadException("load agent " + p.agent().name() + " (" + p.agent().host().name()
                        + "): no whole histogram" + (tool.equals("wrk") ? " (wrk's walk stopped at its budget)" : "") + ": the agents' latencies cannot be merged");
                hlogs.put(p.agent().name(), r.histogram());
            }
        }
        try {
            if (s.rateOnly()) {
                Files.writeString(summary, text.append(String.format(Locale.ROOT, "all: %d requests, %.1f req/s (a warm-up: rate only)%n", requests, rps)));
                return LoadResult.builder().requests(requests, duration).errors(connect, read, write, timeout, status).bytes(bytes)
                        .raw(summary).dropped(dropped).agents(did).build();
            }
            LoadAgents.Merged m = LoadAgents.merge(hlogs);
            Path hlog = s.rawDir().resolve(s.stem() + "." + tool + ".hlog");
            LoadResult merged = LoadResult.fromHistogram(m.histogram(), hlog, requests, duration, connect, read, write, timeout, status, bytes,
                    summary, dropped, LoadSeries.sum(results.stream().map(LoadResult::series).toList())).withAgents(did);
            text.append(String.format(Locale.ROOT, "merged: %d requests, %.1f req/s, histogram %d = %s, p50 %.1f ms, p99 %.1f ms, raw %s%n",
                    requests, rps, m.total(), String.join(" + ", m.countByAgent().values().stream().map(String::valueOf).toList()),
                    LatencyHistogram.ms(m.histogram(), 50), LatencyHistogram.ms(m.histogram(), 99), hlog.getFileName()));
            Files.writeString(summary, text);
            return merged.withByRequest(byRequest(hlog, results));
        } catch (IOException e) {
            throw new LoadException("load agents: " + e.getMessage());
        }
    }
}
