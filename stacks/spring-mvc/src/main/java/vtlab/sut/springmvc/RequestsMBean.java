package vtlab.sut.springmvc;

/**
 * The application's requests as the lab reads them over JMX ({@link Requests#NAME}): a JMX read is served by the
 * JVM's attach listener, not by a Tomcat thread, so it answers while every request thread is busy or the
 * concurrency limit turns requests away.
 */
public interface RequestsMBean {
    /** Requests the gate let through that are inside the application's handlers now; a request the limit turns away never is. */
    int getInFlight();

    /** The most requests in flight at once since the last {@link #takeMax()} or {@link #resetMax()}: a peak, not a sample. */
    int getInFlightMax();

    /**
     * The most requests in flight at once since the last call (or start), and a new window from now: what the lab
     * reads once a second, so each second's figure is that second's peak and none is missed between two reads.
     */
    int takeMax();

    /** Requests answered 503 by the concurrency limit since start. */
    long getRejected();

    /** Requests that passed the limit and left the handlers since start, whatever their status (a handler's exception too). */
    long getCompleted();

    /** Starts a new window for {@link #getInFlightMax()}, at the number in flight now ({@link #takeMax()} without its answer). */
    void resetMax();
}
