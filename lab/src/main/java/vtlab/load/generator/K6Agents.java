package vtlab.load.generator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import vtlab.tier.host.HostRun;
import vtlab.load.LoadSpec;
import vtlab.load.LoadResult;
import vtlab.load.LoadModel;
import vtlab.load.LoadAgent;
import vtlab.load.agent.CopiedAgents;
import vtlab.load.agent.LoadAgents;

/**
 * k6 from several load agents (open model), each running its own execution segment of one test: every agent gets the
 * same script and --execution-segment-sequence (0,1/n,...,1) and its own --execution-segment, as k6-operator starts its
 * runners ({@link LoadAgents#k6Segment}), so k6 itself hands each its share of the arrivals and of the VU cap, and the
 * agents together offer exactly the row's rate. k6 is one static binary: copied from this machine into each host's
 * work folder, once per run. Its CSV and summary are written there and copied back (raw/STEM.agentI.k6.csv, gzipped
 * once parsed, and .k6.summary.json), the CSV parsed here as a local k6's.
 *
 * <p>k6 stamps each record with its host's clock (unix ms): the stamps are moved onto this machine's clock by the
 * host's offset ({@link vtlab.tier.host.HostSurvey}) before they are counted into seconds of the hold, which begins
 * when the agents were started, so second i of every agent is the same second and their seconds add up.
 */
public final class K6Agents extends CopiedAgents {
    private final K6Generator k6;

    K6Agents(K6Generator k6, HostRun run, List<LoadAgent> agents) {
        super(k6, run, agents);
        this.k6 = k6;
    }

    @Override
    protected Path binary() {
        return k6.binary();
    }

    @Override
    protected Job job(LoadSpec s, int i, LoadAgent a) throws IOException, InterruptedException {
        if (s.model() != LoadModel.OPEN) throw new IOException("k6 agents run the open model (closed: wrk agents)");
        String stem = s.stem() + "." + a.name();
        // the whole test's script and the row's rate and cap: k6 scales both to the agent's segment
        LoadSpec mine = share(s, s.connections(), s.rate(), a.cpus());
        Path js = s.rawDir().resolve(stem + ".k6.js");
        Files.writeString(js, K6Generator.script(mine, null));
        String dir = run.dir(a.host());
        String script = run.stageContent(a.host(), js, ".k6.js"), binary = stageBinary(a.host());
        String csv = dir + "/" + stem + ".k6.csv", summary = dir + "/" + stem + ".k6.summary.json";
        List<String> cmd = command(binary, mine, script, csv, summary, i + 1, agents.size());
        List<String> segment = LoadAgents.k6Segment(i + 1, agents.size());
        Path localCsv = s.rawDir().resolve(stem + ".k6.csv"), localSummary = s.rawDir().resolve(stem + ".k6.summary.json"),
                hlog = s.rawDir().resolve(stem + ".k6.hlog");
        for (Path stale : List.of(localCsv, K6Generator.gz(localCsv), localSummary)) Files.deleteIfExists(stale);
        double holdS = K6Generator.hold(s, false).toMillis() / 1000.0;
        double share = s.rate() / agents.size();
        String words = String.format(Locale.ROOT, "segment %s (%.1f req/s)", segment.getFirst().substring(segment.getFirst().indexOf('=') + 1), share);
        return new Job(new Share(a, LoadAgents.connections(s.connections(), agents.size()).get(i), share, words, s.rawDir().resolve(stem + ".k6.txt")),
                cmd, (text, raw, startedMs) -> {
                    fetch(a, csv, localCsv, true);
                    fetch(a, summary, localSummary, true);
                    LoadResult r = parse(a, text, raw, localCsv, localSummary, hlog, holdS, startedMs);
                    try {
                        K6Generator.gzip(localCsv);
                    } catch (IOException e) {
                        throw new LoadException("cannot compress " + localCsv + ": " + e.getMessage());
                    }
                    try {
                        a.host().run(List.of("rm", "-f", "--", csv), SHORT); // a hold's CSV is large: not kept there until the run's end
                    } catch (IOException e) {
                        // the run's end removes the work folder
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return r;
                });
    }

    /** k6 as a local run's, with paths on the host, running agent's segment (agent of agents, from 1) of the test. */
    static List<String> command(String binary, LoadSpec mine, String script, String csv, String summary, int agent, int agents) {
        List<String> cmd = new ArrayList<>(K6Generator.command(Path.of(binary), mine, Path.of(script), Path.of(csv), Path.of(summary)));
        cmd.addAll(cmd.size() - 1, LoadAgents.k6Segment(agent, agents)); // options before the script
        return cmd;
    }

    /**
     * An agent's CSV as a local k6's, each record in the second of the hold it ended in: the hold began at startedMs on
     * this machine's clock, which is startedMs + the offset on the agent's clock, the one its stamps are in.
     */
    static LoadResult parse(LoadAgent a, String text, Path raw, Path csv, Path summary, Path hlog, double holdS, long startedMs) throws LoadException {
        return K6Generator.parse(text, raw, csv, summary, hlog, holdS, false, true, a.onHostClock(startedMs));
    }
}
