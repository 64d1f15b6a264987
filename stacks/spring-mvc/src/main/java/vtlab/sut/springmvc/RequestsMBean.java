package vtlab.sut.springmvc;

/**
 * The application's requests as the lab reads them over JMX ({@link Requests#NAME}): a JMX read is served by the
 * JVM's attach listener, not by a Tomcat thread, so it answers while every request thread is busy or the
 * concurrency limit turns requests away.
 */
public interface RequestsMBean {
    /** Requests inside the application's handlers now (rejected ones only for the instant of their 503). */
    int getInFlight();

    /** The most in flight at once since the last {@link #resetMax()}. */
    int getInFlightMax();

    /** Requests answered 503 by the concurrency limit since start. */
    long getRejected();

    /** Requests that passed the limit and left the handlers since start, whatever their status (a handler's exception too). */
    long getCompleted();

    /** Starts a new window for {@link #getInFlightMax()}, at the number in flight now. */
    void resetMax();
}
