package vtlab.sut.kit;

/**
 * Ends a system under test when the lab that started it is gone (killed with SIGKILL too), so no JVM is orphaned:
 * the lab passes its pid as VTLAB_PARENT_PID; without it (started by hand) nothing is watched.
 */
public final class ParentWatch {
    /** The variable the lab sets to its own pid. */
    public static final String PARENT_PID = "VTLAB_PARENT_PID";
    /** The exit status of a server whose lab died. */
    public static final int STATUS = 3;

    private ParentWatch() {}

    /** Halts this JVM when the lab's process ends (at once if it is gone already). Call it first thing in main. */
    public static void exitWhenParentDies() {
        String pid = System.getenv(PARENT_PID);
        if (pid == null || pid.isBlank()) return;
        ProcessHandle.of(Long.parseLong(pid.trim())).ifPresentOrElse(
                parent -> parent.onExit().thenRun(() -> Runtime.getRuntime().halt(STATUS)),
                () -> Runtime.getRuntime().halt(STATUS));
    }
}
