package vtlab.load;

import java.util.Locale;

/**
 * How load arrives. CLOSED: a fixed number of connections, each sending its next request when the answer arrives, so
 * the load slows down when the server does (coordinated omission). OPEN: requests are sent at a constant rate whatever
 * the server does, and latency is measured from each request's intended send time, so a stall shows in every request
 * that should have been sent during it.
 */
public enum LoadModel {
    CLOSED, OPEN;

    /** As written on the command line and in matrix.csv: closed, open. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
