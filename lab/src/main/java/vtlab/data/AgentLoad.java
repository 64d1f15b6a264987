package vtlab.data;

/**
 * What one load agent of a row did (a run across hosts: vtlab.load's agents), as the checks judge it: whether it
 * kept up with its share (vtlab.check.Validity#agentsBehind).
 *
 * @param connections its connections (closed model), or its share of the in-flight cap (open)
 * @param shareRps    open model: the rate it was given (its k6 segment of the row's, or rate/n); null: closed
 * @param requests    requests answered in the hold
 * @param attempted   requests it sent or tried to (answered, timed out, failed to connect, broke)
 * @param dropped     open model: requests due that it never sent (null: closed, or none reported)
 */
public record AgentLoad(String name, String host, int connections, Double shareRps, long requests, long attempted,
                        double durationS, Long dropped) {
    /** Answered requests per second. */
    public double rps() {
        return durationS > 0 ? requests / durationS : 0;
    }

    /** Requests sent (or tried) per second: what an open-model agent offered. */
    public double attemptedRps() {
        return durationS > 0 ? attempted / durationS : 0;
    }

    /** Closed model: answered requests per second per connection. */
    public double perConnection() {
        return connections > 0 ? rps() / connections : 0;
    }
}
