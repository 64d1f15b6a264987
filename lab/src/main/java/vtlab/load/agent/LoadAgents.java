package vtlab.load.agent;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;

import vtlab.data.LatencyHistogram;

/**
 * Load from several agents (hosts of the topology's load role) as one row: the load split between them, and their
 * histograms merged exactly. k6 does not merge instances and an average of percentiles is no percentile, so the
 * row's percentiles are those of the sum of every agent's whole histogram (as repetitions are combined).
 */
public final class LoadAgents {
    private LoadAgents() {}

    /** Closed model: total connections over n agents, the first agents taking one more when it does not divide. */
    public static List<Integer> connections(int total, int agents) {
        if (agents < 1 || total < agents) throw new IllegalArgumentException(total + " connections cannot be split over " + agents + " agents");
        List<Integer> split = new ArrayList<>();
        for (int i = 0; i < agents; i++) split.add(total / agents + (i < total % agents ? 1 : 0));
        return split;
    }

    /**
     * Open model with k6: agent i of n (from 1) runs its own execution segment of the whole test, every agent given the
     * same sequence (0,1/n,...,1), as k6-operator starts its runners: k6 itself then hands each segment its share of
     * the arrivals, so the agents together offer exactly the row's rate.
     */
    public static List<String> k6Segment(int agent, int agents) {
        if (agents < 1 || agent < 1 || agent > agents) throw new IllegalArgumentException("agent " + agent + " of " + agents);
        List<String> sequence = new ArrayList<>();
        for (int i = 0; i <= agents; i++) sequence.add(fraction(i, agents));
        return List.of("--execution-segment=" + fraction(agent - 1, agents) + ":" + fraction(agent, agents),
                "--execution-segment-sequence=" + String.join(",", sequence));
    }

    private static String fraction(int i, int n) {
        return i == 0 ? "0" : i == n ? "1" : i + "/" + n;
    }

    /** The agents' histograms added, and how many requests each one answered. */
    public record Merged(Histogram histogram, Map<String, Long> countByAgent) {
        public long total() {
            return histogram.getTotalCount();
        }
    }

    /**
     * Adds each agent's .hlog (copied back from its host), by agent name in order; an agent whose histogram is
     * missing or unreadable fails the merge with its name, never a row with one agent's requests missing.
     */
    public static Merged merge(Map<String, Path> hlogByAgent) throws IOException {
        if (hlogByAgent.isEmpty()) throw new IOException("no load agent histograms to merge");
        Histogram sum = LatencyHistogram.empty();
        Map<String, Long> counts = new LinkedHashMap<>();
        for (var e : hlogByAgent.entrySet()) {
            Histogram h;
            try {
                h = LatencyHistogram.read(e.getValue());
            } catch (IOException ex) {
                throw new IOException("load agent " + e.getKey() + ": " + ex.getMessage(), ex);
            }
            sum.add(h);
            counts.put(e.getKey(), h.getTotalCount());
        }
        return new Merged(sum, counts);
    }
}
