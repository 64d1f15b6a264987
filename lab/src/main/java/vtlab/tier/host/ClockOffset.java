package vtlab.tier.host;

/**
 * A host's clock against this machine's: offsetMs = its clock − ours (positive: it is ahead), true within
 * ± uncertaintyMs (half the exchange's round trip). Per-second series of different hosts are aligned with it.
 */
public record ClockOffset(double offsetMs, double uncertaintyMs) {
    /** One exchange: sent and received on this machine's clock, remote read on the host's, all in ns since the epoch. */
    static ClockOffset of(long sent, long remote, long received) {
        double mid = sent + (received - sent) / 2.0;
        return new ClockOffset((remote - mid) / 1e6, (received - sent) / 2e6);
    }
}
