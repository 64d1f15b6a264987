package vtlab.pin;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * JDK 22+: blocks with a native frame on the stack, which pins on every JDK (JEP 491 only freed synchronized):
 * libc qsort through FFM, whose comparator upcall runs the blocking action once.
 */
public final class PinControl {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle QSORT = LINKER.downcallHandle(
            LINKER.defaultLookup().find("qsort").orElseThrow(),
            FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS));
    private static final MethodHandle COMPARE;
    private static final ThreadLocal<Runnable> ACTION = new ThreadLocal<>();

    static {
        try {
            COMPARE = MethodHandles.lookup().findStatic(PinControl.class, "compare",
                    MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private PinControl() {}

    public static String mechanism() {
        return "native frame: qsort via FFM with a blocking upcall (pins on every JDK)";
    }

    public static void runPinned(Runnable blocking) {
        ACTION.set(blocking);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cmp = LINKER.upcallStub(COMPARE,
                    FunctionDescriptor.of(JAVA_INT, ADDRESS.withTargetLayout(JAVA_INT), ADDRESS.withTargetLayout(JAVA_INT)), arena);
            MemorySegment two = arena.allocateFrom(JAVA_INT, 2, 1); // two elements: one comparison, one action
            QSORT.invokeExact(two, 2L, 4L, cmp);
        } catch (Throwable t) {
            if (t instanceof RuntimeException r) throw r;
            if (t instanceof Error e) throw e;
            throw new IllegalStateException(t);
        } finally {
            ACTION.remove();
        }
    }

    private static int compare(MemorySegment a, MemorySegment b) {
        Runnable r = ACTION.get();
        if (r != null) {
            ACTION.remove();
            r.run();
        }
        return Integer.compare(a.get(JAVA_INT, 0), b.get(JAVA_INT, 0));
    }
}
