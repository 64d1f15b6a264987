package vtlab.proc;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.sun.tools.attach.VirtualMachine;

/**
 * A diagnostic command sent to a local JVM the way the jcmd tool sends it (the attach API's "jcmd" operation), from
 * inside the lab instead of a jcmd process per command. A jcmd process is a JVM start: 0.3–0.7 s of wall time and a
 * few hundred ms of CPU each, and a row sends a dozen (JFR start/dump/stop for the thread-mode proof, the pinning
 * and profile probes, thread dumps, GC logging), so seconds of every row went to starting jcmd.
 *
 * <p>The operation is public in {@code sun.tools.attach.HotSpotVirtualMachine}, a package jdk.attach exports to no
 * one: the lab's JVM is started with {@code --add-exports jdk.attach/sun.tools.attach=ALL-UNNAMED}. Without it
 * {@link #reaches} is false and callers run the jcmd tool as before.
 */
public final class AttachJcmd {
    private AttachJcmd() {}

    private static final Method EXECUTE = executeJCmd();

    private static Method executeJCmd() {
        try {
            Method m = Class.forName("sun.tools.attach.HotSpotVirtualMachine").getMethod("executeJCmd", String.class);
            return m.getDeclaringClass().getModule().isExported("sun.tools.attach", AttachJcmd.class.getModule()) ? m : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Whether this JVM may send the operation to pid: the export is in place, and pid is another JVM (the attach API
     * refuses the JVM itself unless it was started to allow it; a jcmd process has no such limit).
     */
    public static boolean reaches(long pid) {
        return EXECUTE != null && pid != ProcessHandle.current().pid();
    }

    /**
     * Sends the command (its words joined by spaces, as jcmd joins its arguments) to pid; its output. An IOException
     * with the JVM's message where jcmd exits 1 (an unknown command, a bad argument), or when no answer came in time; a
     * command that answers with its own complaint (JFR's "No recordings to dump") returns it, as jcmd prints it with 0.
     */
    public static String run(long pid, List<String> command, Duration timeout) throws IOException, InterruptedException {
        if (EXECUTE == null) throw new IllegalStateException("the attach API's jcmd operation is not exported to the lab");
        String line = String.join(" ", command);
        VirtualMachine vm;
        try {
            vm = VirtualMachine.attach(Long.toString(pid));
        } catch (com.sun.tools.attach.AttachNotSupportedException e) {
            throw new IOException("cannot attach to " + pid + ": " + e.getMessage(), e);
        }
        // the answer is read on its own thread: a JVM that stops answering must not hold the row past the timeout
        FutureTask<String> answer = new FutureTask<>(() -> {
            // whole-buffer reads, as jcmd reads: the attach socket's stream fails on a read at an offset (JDK 25)
            try (InputStream in = (InputStream) EXECUTE.invoke(vm, line)) {
                java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
                byte[] b = new byte[8192];
                for (int n; (n = in.read(b)) > 0; ) out.write(b, 0, n);
                return out.toString(StandardCharsets.UTF_8);
            }
        });
        Thread.ofVirtual().name("jcmd-" + pid).start(answer);
        try {
            return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            answer.cancel(true);
            throw new IOException("jcmd " + line + ": no answer from " + pid + " within " + timeout.toSeconds() + " s");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() instanceof InvocationTargetException ite ? ite.getCause() : e.getCause();
            String message = cause == null ? e.toString() : cause.getMessage() == null ? cause.toString() : cause.getMessage();
            throw new IOException("jcmd " + line + " failed: " + message.strip(), cause);
        } finally {
            vm.detach(); // closes the socket: a read still waiting ends with it
        }
    }
}
