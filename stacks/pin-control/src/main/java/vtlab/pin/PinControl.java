package vtlab.pin;

/**
 * A positive control for pinning capture: runs a blocking action so that the virtual thread running it pins its
 * carrier on every JDK, so a pinning count of zero elsewhere means "no pinning", not "capture broken".
 * <p>
 * This base version (JDK 21-23) blocks inside {@code synchronized}, which pins before JEP 491. On JDK 22+ the
 * multi-release jar replaces it (META-INF/versions/22) with a native frame on the stack: libc {@code qsort} called
 * through FFM with an upcall comparator that blocks, which still pins after JEP 491.
 */
public final class PinControl {
    /**
     * The last call's monitor. Publishing it makes each monitor escape: C2's escape analysis removes a lock on an
     * object that never leaves the method (a bare {@code synchronized (new Object())}), and with it the pin, once
     * runPinned is compiled (on JDK 21 the control then stopped pinning after a long warm-up).
     */
    @SuppressWarnings("unused")
    private static Object lastMonitor;

    private PinControl() {}

    /** How this JDK's control pins, for runtime-info. */
    public static String mechanism() {
        return "synchronized (pins before JDK 24)";
    }

    public static void runPinned(Runnable blocking) {
        Object monitor = new Object(); // a fresh monitor per call: pins without serialising requests
        lastMonitor = monitor;
        synchronized (monitor) {
            blocking.run();
        }
    }
}
