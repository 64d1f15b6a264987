package vtlab.probe;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

import vtlab.data.RequestTime;
import vtlab.data.RequestTime.Cause;
import vtlab.proc.Env;

/**
 * Where the request threads' time went, from a JFR recording of the SUT (execution samples, monitor enters, parks,
 * socket reads, sleeps, GC pauses) and the request threads' OS accounting (on-CPU and run-queue time from
 * /proc/PID/task/TID/schedstat), as shares of the total request time of the hold (the sum of every request's latency:
 * by Little's law the requests in flight times the hold, from the generator's throughput and mean latency).
 *
 * <p>An event counts when it happened on a request thread: a virtual thread with a frame outside the JDK, or a thread
 * whose stack at the event holds a frame of the server's request path or of the service's own packages (but not its
 * main method: an embedded server's main thread waits there) (so a pool thread idle in its queue, a poller or
 * a housekeeper does not). Only the part of an event inside the hold counts.
 *
 * <p>What JFR (JDK 21–25) sees of virtual threads, found by {@code TimeBreakdownTest} on real recordings: their
 * execution samples, socket reads and sleeps (events written in Java code) — but not a park nor a blocked monitor enter
 * once the virtual thread has unmounted (no jdk.ThreadPark, no jdk.JavaMonitorEnter): those land in "other" for virtual
 * rows, with the reason in the evidence.
 */
public final class TimeBreakdown {
    /** Owners of CPU time, by the leaf-most frame outside the JDK in an execution sample. */
    public enum Owner {
        SERVICE("the service's own code"), LAUNCHER("Spring Boot's nested-jar loader"), FRAMEWORK("the web framework"),
        DATA("the JDBC driver, pool or ORM"),
        SERIALIZATION("serialization and templates"), LIBRARY("other libraries"), JDK("the JDK"),
        LOGGING(RequestTime.WRITING_LOGS, true), CLASSLOADING(RequestTime.LOADING_CLASSES, true), METRICS(RequestTime.METRICS, true);

        public final String label;
        /** Work a request does not need to answer: the first thing to look for in a CPU that is full. */
        public final boolean overhead;

        Owner(String label) {
            this(label, false);
        }

        Owner(String label, boolean overhead) {
            this.label = label;
            this.overhead = overhead;
        }

        public static Owner ofLabel(String label) {
            for (Owner o : values()) if (o.label.equals(label)) return o;
            return null;
        }
    }

    /** Logging libraries, and a SQL statement logger writing the ORM's queries out. */
    static final List<String> LOGGING = List.of("org.apache.logging.", "org.apache.log4j.", "ch.qos.logback.", "org.slf4j.", "org.jboss.logging.",
            "org.apache.commons.logging.", "org.hibernate.engine.jdbc.spi.SqlStatementLogger");
    /** The JDK writing to the console (System.out) or through its own logging. */
    static final List<String> JDK_LOGGING = List.of("java.io.PrintStream.", "java.util.logging.");
    /** The JDK loading a class or looking a resource up (a class loaded, or a resource read, on a request's path). */
    static final List<String> JDK_CLASSLOADING = List.of("java.lang.ClassLoader.loadClass", "java.lang.ClassLoader.defineClass",
            "java.lang.ClassLoader.getResource", "java.lang.ClassLoader.findResource", "jdk.internal.loader.", "java.net.URLClassLoader.");
    static final List<String> METRICS = List.of("io.micrometer.", "io.prometheus.", "io.opentelemetry.", "io.opentracing.", "brave.", "zipkin2.");

    /** Frames of a request being served whatever the service's own code: the servlet containers' request paths. */
    public static final List<String> SERVER_FRAMES = List.of("org.apache.coyote.", "jakarta.servlet.", "javax.servlet.",
            "org.eclipse.jetty.server.", "io.undertow.server.");
    static final List<String> JDK = JfrPinningProbe.JDK_PACKAGES;
    /**
     * Spring Boot's loader of a fat jar's nested jars, its package: its own owner, apart from the web framework, because
     * its CPU has a fix that is no setting (run the jar extracted): Spring PetClinic's virtual rows spent most of theirs
     * there. The ab experiment's levers look for it in a monitor's evidence too.
     */
    public static final String NESTED_JAR_LOADER = "org.springframework.boot.loader";
    static final List<String> LAUNCHER = List.of(NESTED_JAR_LOADER + "."); // a prefix of its classes, not of a longer package name
    static final List<String> FRAMEWORK = List.of("org.apache.catalina.", "org.apache.coyote.", "org.apache.tomcat.",
            "org.springframework.", "org.eclipse.jetty.", "io.undertow.", "jakarta.servlet.", "javax.servlet.", "io.netty.",
            "reactor.", "io.micronaut.", "io.quarkus.", "io.vertx.", "io.helidon.", "io.javalin.", "org.glassfish.jersey.");
    static final List<String> DATA = List.of("org.postgresql.", "com.zaxxer.hikari.", "com.mysql.", "org.mariadb.", "oracle.jdbc.",
            "org.h2.", "org.hsqldb.", "org.apache.derby.", "com.microsoft.sqlserver.", "org.hibernate.", "org.jooq.",
            "org.mybatis.", "org.apache.ibatis.", "org.springframework.jdbc.", "org.springframework.orm.", "org.springframework.data.");
    static final List<String> SERIALIZATION = List.of("com.fasterxml.jackson.", "tools.jackson.", "com.google.gson.",
            "org.thymeleaf.", "freemarker.", "org.apache.velocity.", "com.github.mustachejava.", "com.samskivert.mustache.",
            "org.yaml.", "jakarta.json.", "org.glassfish.json.", "com.google.protobuf.", "org.springframework.http.converter.");
    /** HTTP clients: a request parked in one is waiting for a downstream (the JDK's client reads on its selector thread). */
    static final List<String> HTTP_CLIENTS = List.of("jdk.internal.net.http.", "java.net.http.", "org.apache.hc.",
            "org.apache.http.", "okhttp3.", "reactor.netty.http.client.", "org.springframework.web.client.",
            "org.springframework.web.reactive.function.client.", "org.eclipse.jetty.client.", "io.netty.handler.codec.http.");
    static final List<String> POOLS = List.of("com.zaxxer.hikari.", "org.apache.commons.dbcp2.", "org.apache.tomcat.jdbc.pool.",
            "com.mchange.v2.c3p0.", "oracle.ucp.");
    static final List<String> JDBC = List.of("org.postgresql.", "com.mysql.", "org.mariadb.", "oracle.jdbc.", "com.microsoft.sqlserver.",
            "org.h2.", "org.hsqldb.", "org.apache.derby.");
    /** The server reading its client's request: not a dependency. */
    static final List<String> SERVER_IO = List.of("org.apache.tomcat.util.net.", "org.eclipse.jetty.io.", "io.undertow.", "org.xnio.");

    static final Set<String> EVENTS = Set.of("jdk.ExecutionSample", "jdk.JavaMonitorEnter", "jdk.JavaMonitorWait", "jdk.ThreadPark",
            "jdk.SocketRead", "jdk.ThreadSleep", "jdk.GCPhasePause");

    private TimeBreakdown() {}

    /**
     * What a recording holds of the request threads in a window.
     *
     * @param waitS      seconds of request-thread time per cause seen in events (monitor, park, pool, db, downstream, sleep)
     * @param evidence   per cause: what it waited on (a lock's class, a socket's peer, a frame) with its seconds
     * @param samples    execution samples of request threads by owner of their leaf-most frame outside the JDK
     * @param topFrames  that frame ("class.method") with its sample count
     * @param gcPauseS   wall-clock seconds of GC pauses (jdk.GCPhasePause) in the window: every request in flight stops
     * @param gcPauses   how many
     * @param platformTids the OS thread ids of the platform threads that served requests (for their schedstat)
     * @param virtualSeen whether any request ran on a virtual thread
     * @param samplesTotal execution samples of request threads
     * @param waits      every wait seen on a request thread (its cause, whole length and what it waited on), and every GC
     *                   pause as a wait of cause gc: what the slowest requests can have waited on ({@link #tail})
     */
    public record Seen(Map<Cause, Double> waitS, Map<Cause, Map<String, Double>> evidence, Map<Owner, Integer> samples,
                       Map<String, Integer> topFrames, double gcPauseS, int gcPauses, Set<Long> platformTids, boolean virtualSeen,
                       int samplesTotal, List<Wait> waits) {}

    /** One wait event on a request thread (or a GC pause, which stops them all): its whole length, not its part in the hold. */
    public record Wait(Cause cause, double seconds, String what) {}

    /** Which frames mark a request thread and which sockets are the database. */
    public record Classifier(List<String> appPackages, Set<Integer> dbPorts) {
        /**
         * A virtual thread with any frame outside the JDK (the JDK's own virtual threads, such as JDK 25's socket
         * sub-pollers, have none), or any thread in the server's request path or the service's own code.
         */
        boolean requestThread(RecordedThread t, List<RecordedFrame> frames) {
            boolean virtual = t != null && t.isVirtual(), app = false;
            for (RecordedFrame f : frames) {
                String type = type(f);
                if (any(type, SERVER_FRAMES) || virtual && !any(type, JDK)) return true;
                if (any(type, appPackages)) {
                    // the service's main thread (Tomcat's StandardServer.await sleeps there) serves no request
                    if (f.getMethod().getName().equals("main")) return false;
                    app = true;
                }
            }
            return app;
        }

        /**
         * The owner of a sample: from the leaf outwards, work a request does not need (logging, class loading, metrics)
         * the first time one of its frames is met, else the first frame outside the JDK by its package.
         */
        Owner owner(List<RecordedFrame> frames) {
            for (RecordedFrame f : frames) {
                String type = type(f);
                String method = f.getMethod() == null ? "" : type + "." + f.getMethod().getName();
                if (any(method, JDK_LOGGING) || any(method, LOGGING)) return Owner.LOGGING;
                // loading through Spring Boot's nested-jar loader is its work, with a lever of its own (run the jar extracted)
                if (any(method, JDK_CLASSLOADING)) return hasFrame(frames, LAUNCHER) ? Owner.LAUNCHER : Owner.CLASSLOADING;
                if (any(type, METRICS)) return Owner.METRICS;
                if (any(type, JDK)) continue;
                if (any(type, appPackages)) return Owner.SERVICE;
                if (any(type, LAUNCHER)) return Owner.LAUNCHER;
                if (any(type, SERIALIZATION)) return Owner.SERIALIZATION;
                if (any(type, DATA)) return Owner.DATA;
                if (any(type, FRAMEWORK)) return Owner.FRAMEWORK;
                return Owner.LIBRARY;
            }
            return Owner.JDK;
        }
    }

    /**
     * A park or Object.wait that ended at its own timeout, not because another thread let it go: nothing it waited for was
     * held or owed by anyone (LockSupport.parkNanos, a poll that found nothing), so it is the request's own wait, as a
     * sleep is, not a queue. JFR writes the park's timeout (ns) or deadline (epoch ms), Long.MIN_VALUE when it had none,
     * and whether a wait timed out. A pool's or an HTTP client's wait stays theirs: those are asked first.
     */
    static boolean ranToItsOwnTimeout(RecordedEvent e, String type) {
        if (type.equals("jdk.JavaMonitorWait")) return e.hasField("timedOut") && e.getBoolean("timedOut");
        if (e.hasField("timeout")) {
            long t = e.getLong("timeout");
            // JFR's clock and the park's may differ by a hair: 1% short is still its own timeout
            if (t > 0 && e.getDuration().toNanos() >= t - t / 100) return true;
        }
        if (e.hasField("until")) {
            long until = e.getLong("until");
            return until > 0 && !e.getEndTime().isBefore(Instant.ofEpochMilli(until));
        }
        return false;
    }

    public static Seen read(Path jfr, Instant from, Instant to, Classifier c) throws IOException {
        Map<Cause, Double> wait = new EnumMap<>(Cause.class);
        Map<Cause, Map<String, Double>> evidence = new EnumMap<>(Cause.class);
        Map<Owner, Integer> samples = new EnumMap<>(Owner.class);
        Map<String, Integer> top = new HashMap<>();
        Set<Long> tids = new TreeSet<>();
        double gc = 0;
        int pauses = 0, total = 0;
        boolean virtual = false;
        List<Wait> waits = new ArrayList<>();
        try (RecordingFile file = new RecordingFile(jfr)) {
            while (file.hasMoreEvents()) {
                RecordedEvent e = file.readEvent();
                String type = e.getEventType().getName();
                if (!EVENTS.contains(type)) continue;
                double s = overlapS(e, from, to);
                if (type.equals("jdk.GCPhasePause")) {
                    if (s > 0) {
                        gc += s;
                        pauses++;
                        waits.add(new Wait(Cause.GC, e.getDuration().toNanos() / 1e9, "a GC pause" + (e.hasField("name") && e.getString("name") != null ? " (" + e.getString("name") + ")" : "")));
                    }
                    continue;
                }
                boolean sample = type.equals("jdk.ExecutionSample");
                if (sample ? !within(e.getStartTime(), from, to) : s <= 0) continue;
                RecordedThread t = sample ? e.getThread("sampledThread") : e.getThread();
                List<RecordedFrame> frames = e.getStackTrace() == null ? List.of() : e.getStackTrace().getFrames();
                if (!c.requestThread(t, frames)) continue;
                if (t != null && t.isVirtual()) virtual = true;
                else if (t != null && t.getOSThreadId() > 0) tids.add(t.getOSThreadId());
                if (sample) {
                    total++;
                    samples.merge(c.owner(frames), 1, Integer::sum);
                    top.merge(leafOutsideJdk(frames), 1, Integer::sum);
                    continue;
                }
                Cause cause;
                String what;
                switch (type) {
                    case "jdk.JavaMonitorEnter" -> {
                        cause = Cause.MONITOR;
                        String lock = className(e, "monitorClass");
                        what = lock.startsWith("java.io.PrintStream") ? CONSOLE + " " + leafOutsideJdk(frames) : "lock " + lock + " in " + leafOutsideJdk(frames);
                    }
                    case "jdk.ThreadSleep" -> {
                        cause = Cause.SLEEP;
                        what = "Thread.sleep in " + leafOutsideJdk(frames);
                    }
                    case "jdk.SocketRead" -> {
                        int port = e.hasField("port") ? e.getInt("port") : -1;
                        String peer = (e.hasField("host") && e.getString("host") != null && !e.getString("host").isEmpty()
                                ? e.getString("host") : e.hasField("address") ? e.getString("address") : "?") + ":" + port;
                        if (hasFrame(frames, SERVER_IO)) {
                            cause = Cause.OTHER;
                            what = "reading the client's request";
                        } else if (c.dbPorts().contains(port) || hasFrame(frames, JDBC)) {
                            cause = Cause.DB;
                            what = "socket reads from " + peer + " (" + firstOf(frames, JDBC, "a database driver") + ")";
                        } else {
                            cause = Cause.DOWNSTREAM;
                            what = "socket reads from " + peer;
                        }
                    }
                    default -> { // ThreadPark, JavaMonitorWait
                        String on = type.equals("jdk.ThreadPark") ? className(e, "parkedClass") : "Object.wait on " + className(e, "monitorClass");
                        if (hasFrame(frames, POOLS)) {
                            cause = Cause.POOL_WAIT;
                            what = firstOf(frames, POOLS, "a connection pool") + " (parked on " + on + ")";
                        } else if (hasFrame(frames, HTTP_CLIENTS)) {
                            cause = Cause.DOWNSTREAM;
                            what = "an HTTP client: " + firstOf(frames, HTTP_CLIENTS, "?");
                        } else if (ranToItsOwnTimeout(e, type)) {
                            cause = Cause.SLEEP;
                            what = "a park to its own timeout (" + on + ") in " + leafOutsideJdk(frames);
                        } else {
                            cause = Cause.PARK;
                            // JDK 21+'s PrintStream takes an internal lock: a park behind the console, not a monitor
                            what = hasMethod(frames, "java.io.PrintStream.") ? CONSOLE + " " + leafOutsideJdk(frames) : on + " in " + leafOutsideJdk(frames);
                        }
                    }
                }
                wait.merge(cause, s, Double::sum);
                evidence.computeIfAbsent(cause, k -> new HashMap<>()).merge(what, s, Double::sum);
                waits.add(new Wait(cause, e.getDuration().toNanos() / 1e9, what));
            }
        }
        return new Seen(wait, evidence, samples, top, gc, pauses, tids, virtual, total, waits);
    }

    /**
     * What JSON thread dumps (jcmd Thread.dump_to_file -format=json) taken during the hold show of the virtual request
     * threads, where JFR is blind: each virtual thread with a frame outside the JDK (or none yet: started, never run) in
     * each dump is one observation of where a request is; those parked or blocked off a carrier, or queued for one, are
     * counted by cause. Reads are left to JFR's events, which see them whole, and so are sleeps unless the recording
     * had no sleep events (a virtual row's: see ProfileProbe.settings); mounted threads to schedstat.
     *
     * @param observations virtual request threads over all dumps
     * @param counts       of those, by a cause only the dumps see (monitor, park, pool_wait, downstream, runqueue)
     * @param evidence     per cause: what they waited on, with its count
     */
    public record DumpSeen(int dumps, int observations, Map<Cause, Integer> counts, Map<Cause, Map<String, Integer>> evidence, int inServer,
                           int peakInServer) {
        public static final DumpSeen NONE = new DumpSeen(0, 0, Map.of(), Map.of(), 0, 0);

        /** Dumps whose requests in the server were not counted (built by hand): their server time is unknown. */
        public DumpSeen(int dumps, int observations, Map<Cause, Integer> counts, Map<Cause, Map<String, Integer>> evidence) {
            this(dumps, observations, counts, evidence, -1, -1);
        }

        /**
         * Requests inside the server at the dumps' average instant: its request threads holding one (a platform thread in
         * a servlet container's request path, a virtual request thread), none that waits for its client's bytes. NaN
         * without dumps, when they saw no request thread of a servlet container (a Netty event loop holds no request), or
         * too few to measure by ({@link #MIN_IN_SERVER}).
         */
        public double inServerPerDump() {
            return dumps > 0 && inServer >= MIN_IN_SERVER ? (double) inServer / dumps : Double.NaN;
        }

        /**
         * Requests in the server seen over all dumps below which their mean is no measure of the server's time: at one
         * connection 4 dumps see 0 to 4 (the CPU control's virtual row read a quarter of its time outside the server
         * from one dump that caught its request between two). 40 is a relative error of about 1/√40 = 16%.
         */
        public static final int MIN_IN_SERVER = 40;
    }

    /** A dump's virtual thread waiting for a carrier, in words (the evidence's key). */
    public static final String QUEUED_FOR_CARRIER = "virtual threads queued for a carrier (thread dumps)";
    /**
     * A virtual thread that called Thread.yield() (unmounted in VirtualThread.tryYield, back in the carrier's queue): a
     * spin, as HikariCP's ConcurrentBag before 7.1.0 does while a borrower waits; said with the frame that spins.
     */
    public static final String YIELDING = "yielding in a spin (Thread.yield: off its carrier, back in its queue) in";
    /** Requests waiting on the console's lock: System.out / System.err written on the request's path. */
    public static final String CONSOLE = "the console's lock (a java.io.PrintStream: System.out or System.err) written from";

    static final List<String> SOCKET_IO = List.of("sun.nio.ch.NioSocketImpl.", "sun.nio.ch.SocketInputStream.", "java.net.SocketInputStream.",
            "sun.nio.ch.SocketChannelImpl.read", "sun.nio.ch.Net.poll");
    /** A server's own reading of its client's connection (Helidon reads each connection on a virtual thread of its own). */
    static final List<String> CLIENT_READS = Stream.concat(SERVER_IO.stream(), Stream.of("io.helidon.webserver.", "io.helidon.common.buffers.")).toList();

    /**
     * A thread blocked reading its client's connection (the next request on a kept-alive one, or the body still on its
     * way): it waits for the client, not inside the server.
     */
    static boolean readingItsClient(List<String> frames) {
        return frames.stream().anyMatch(f -> any(f, SOCKET_IO)) && frames.stream().anyMatch(f -> any(f, CLIENT_READS))
                && frames.stream().noneMatch(f -> any(f, JDBC) || any(f, HTTP_CLIENTS));
    }

    public static DumpSeen readDumps(List<String> jsons, Classifier c) throws IOException {
        return readDumps(jsons, c, false);
    }

    /** @param sleeps count the virtual threads in Thread.sleep as sleeping (the recording had no sleep events) */
    public static DumpSeen readDumps(List<String> jsons, Classifier c, boolean sleeps) throws IOException {
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        Map<Cause, Integer> counts = new EnumMap<>(Cause.class);
        Map<Cause, Map<String, Integer>> evidence = new EnumMap<>(Cause.class);
        int observations = 0, inServer = 0, peak = 0;
        for (String text : jsons) {
            int before = inServer;
            for (com.fasterxml.jackson.databind.JsonNode container : json.readTree(text).path("threadDump").path("threadContainers")) {
                for (com.fasterxml.jackson.databind.JsonNode t : container.path("threads")) {
                    List<String> frames = new ArrayList<>();
                    t.path("stack").forEach(f -> frames.add(frame(f.asText())));
                    if (!t.path(ThreadDump.VIRTUAL_FIELD).asBoolean(false)) {
                        // a platform thread in a servlet container's request path holds a request; one idle in its pool does not
                        if (frames.stream().anyMatch(f -> any(f, SERVER_FRAMES)) && !readingItsClient(frames)) inServer++;
                        continue;
                    }
                    boolean outside = frames.stream().anyMatch(f -> !any(f, JDK));
                    if (!frames.isEmpty() && !outside) continue; // the JDK's own virtual threads
                    if (readingItsClient(frames)) continue; // waiting for its client's bytes: not in the server
                    observations++;
                    inServer++;
                    String state = t.path("state").asText("");
                    String leaf = frames.stream().filter(f -> !any(f, JDK)).findFirst().orElse("(not started)");
                    Cause cause = null;
                    String what = null;
                    boolean console = frames.stream().anyMatch(f -> f.startsWith("java.io.PrintStream."));
                    if (state.equals("BLOCKED")) {
                        cause = Cause.MONITOR;
                        String on = t.path("blockedOn").asText("?").replaceFirst("@[0-9a-f]+$", "");
                        what = console || on.startsWith("java.io.PrintStream") ? CONSOLE + " " + leaf : "lock " + on + " in " + leaf;
                    } else if (state.equals("RUNNABLE") && t.path("carrier").isMissingNode() && frames.stream().noneMatch(f -> any(f, SOCKET_IO))) {
                        cause = Cause.RUNQUEUE;
                        boolean yielding = frames.stream().anyMatch(f -> f.startsWith("java.lang.Thread.yield") || f.startsWith("java.lang.VirtualThread.tryYield"));
                        what = yielding ? YIELDING + " " + leaf : QUEUED_FOR_CARRIER;
                    } else if (sleeps && state.endsWith("WAITING") && frames.stream().anyMatch(f -> f.startsWith("java.lang.Thread.sleep"))) {
                        cause = Cause.SLEEP;
                        what = "Thread.sleep in " + leaf;
                    } else if (state.endsWith("WAITING") && frames.stream().noneMatch(f -> any(f, SOCKET_IO) || f.startsWith("java.lang.Thread.sleep"))) {
                        String on = t.path("parkBlocker").path("object").asText(t.path("waitingOn").asText("?")).replaceFirst("@[0-9a-f]+$", "");
                        String pool = frames.stream().filter(f -> any(f, POOLS)).findFirst().orElse(null);
                        String client = frames.stream().filter(f -> any(f, HTTP_CLIENTS)).findFirst().orElse(null);
                        if (pool != null) {
                            cause = Cause.POOL_WAIT;
                            what = pool + " (parked on " + on + ")";
                        } else if (client != null) {
                            cause = Cause.DOWNSTREAM;
                            what = "an HTTP client: " + client;
                        } else {
                            cause = Cause.PARK;
                            // the console's lock: an internal ReentrantLock in JDK 21+'s PrintStream, so a park, not a monitor
                            what = console ? CONSOLE + " " + leaf : on + " in " + leaf;
                        }
                    }
                    if (cause == null) continue;
                    counts.merge(cause, 1, Integer::sum);
                    evidence.computeIfAbsent(cause, k -> new HashMap<>()).merge(what, 1, Integer::sum);
                }
            }
            peak = Math.max(peak, inServer - before);
        }
        return new DumpSeen(jsons.size(), observations, counts, evidence, inServer, peak);
    }

    /** "java.base/java.lang.Thread.sleep(Thread.java:540)" as "java.lang.Thread.sleep". */
    static String frame(String f) {
        int paren = f.indexOf('(');
        String s = paren < 0 ? f : f.substring(0, paren);
        return s.substring(s.lastIndexOf('/') + 1);
    }

    /**
     * What the recording saw with what the dumps add for virtual threads: each cause's share of the dumps' observations
     * as that share of the request time (a request is one virtual thread, so where its thread is at random instants is
     * where its time goes), evidence weighted alike and marked as the dumps'.
     */
    public static Seen withDumps(Seen seen, DumpSeen dumps, double requestS) {
        if (dumps.observations() == 0) return seen;
        Map<Cause, Double> wait = new EnumMap<>(Cause.class);
        wait.putAll(seen.waitS());
        Map<Cause, Map<String, Double>> evidence = new EnumMap<>(Cause.class);
        seen.evidence().forEach((c, m) -> evidence.put(c, new HashMap<>(m)));
        dumps.counts().forEach((c, n) -> wait.merge(c, requestS * n / dumps.observations(), Double::sum));
        dumps.evidence().forEach((c, m) -> m.forEach((what, n) -> evidence.computeIfAbsent(c, k -> new HashMap<>())
                .merge(what + " " + observed(n, dumps), requestS * n / dumps.observations(), Double::sum)));
        return new Seen(wait, evidence, seen.samples(), seen.topFrames(), seen.gcPauseS(), seen.gcPauses(), seen.platformTids(),
                seen.virtualSeen(), seen.samplesTotal(), seen.waits());
    }

    /**
     * "[3 of 5 virtual threads in 1 dumps, 95% CI 8–97%]": a share read from a handful of instants is a direction, and
     * its interval says how wide (at one connection a dump sees one request thread at most). The dump is the unit of
     * that interval, not the thread: the threads of one dump are one instant of the service (vtlab.data.judge.Shares).
     */
    static String observed(int n, DumpSeen dumps) {
        double[] ci = vtlab.data.judge.Shares.ofDumps(n, dumps.observations(), dumps.dumps());
        return String.format(Locale.ROOT, "[%d of %d virtual threads in %d dumps, 95%% CI %.0f–%.0f%%]", n, dumps.observations(), dumps.dumps(),
                100 * ci[0], 100 * ci[1]);
    }

    /**
     * The row's breakdown.
     *
     * @param requestS     the hold's total request time (throughput × mean latency × hold), seconds
     * @param holdS        the hold, seconds
     * @param cpuS         on-CPU seconds of the request threads (platform: pool threads; virtual: carriers); NaN: unknown,
     *                     then estimated from the execution samples
     * @param runqueueS    seconds the request threads waited for a CPU in the kernel's run queue; NaN: unknown
     * @param threads      the request threads the OS accounting covered (for the evidence)
     * @param cpus         the SUT's CPUs
     * @param samplePeriodS the execution sampler's period
     */
    public static Result compute(Seen seen, double requestS, double holdS, double cpuS, double runqueueS, int threads, int cpus,
                                 double samplePeriodS) {
        return compute(seen, requestS, holdS, cpuS, runqueueS, threads, cpus, samplePeriodS, SutCpu.UNKNOWN);
    }

    /**
     * The SUT's CPU over the hold, every thread of it (from schedstat): how busy its CPUs were, and how long the threads
     * that are not request threads (the acceptor, the poller: what hands a request to a worker) waited to run.
     *
     * @param busy        on-CPU time of all its threads over hold × CPUs (0..1; NaN: not read, e.g. on another host)
     * @param coresBusy   its CPUs' busy time by every process over the hold (0..1, /proc/stat; NaN: not read): a core
     *                    another process keeps busy is as full for the SUT as one it fills itself
     * @param othersRunqueueS run-queue seconds of its threads that serve no request
     * @param othersTop   the two of those that waited longest, "name 1.2 s, name 0.4 s"
     */
    public record SutCpu(double busy, double coresBusy, double othersRunqueueS, String othersTop) {
        public static final SutCpu UNKNOWN = new SutCpu(Double.NaN, Double.NaN, Double.NaN, "");

        boolean full() {
            return busy >= FULL_CPU || coresBusy >= FULL_CPU;
        }
    }

    /** The SUT's CPUs this busy are full: a request that waits before a worker takes it waits for the CPU. */
    static final double FULL_CPU = 0.9;
    /** The largest cause dominates at half the request time or more, or at twice the next one (and above the unseen). */
    static final double DOMINANT_PCT = 50, DOMINANT_RATIO = 2;

    /**
     * The row's breakdown, with the SUT's whole CPU: what no source saw of the request time while the SUT's CPU was
     * full is time requests waited for it before a worker took them (in the socket's queue, the poller's, the pool's
     * queue: each needs the CPU to move on), and counts as waiting to run with that evidence. The largest cause is
     * never "other": when the unseen part is the largest, or no cause dominates, the result says so.
     */
    public static Result compute(Seen seen, double requestS, double holdS, double cpuS, double runqueueS, int threads, int cpus,
                                 double samplePeriodS, SutCpu sut) {
        return compute(seen, requestS, holdS, cpuS, runqueueS, threads, cpus, samplePeriodS, sut, 0);
    }

    /** A thread pool this busy is saturated: a request that finds no free thread waits in the connector's queue. */
    static final double SATURATED_POOL = 0.9;

    /**
     * @param connections the closed model's connections (0: open model, or not known): with more of them than the
     *                    platform request threads, and those threads busy all the hold, the requests in flight beyond the
     *                    threads wait for a free one — time no event records, counted as waiting for a free request thread
     */
    public static Result compute(Seen seen, double requestS, double holdS, double cpuS, double runqueueS, int threads, int cpus,
                                 double samplePeriodS, SutCpu sut, int connections) {
        return compute(seen, requestS, holdS, cpuS, runqueueS, threads, cpus, samplePeriodS, sut, connections, Double.NaN);
    }

    /**
     * One account of request time for both thread models: the client's request time (connections × hold in the closed
     * model) is the server's own (requests its request threads held: {@link DumpSeen#inServerPerDump} × hold) and the
     * rest, outside the server (the kernel's accept and receive queues, the poller, the network, the client). What the
     * recording and schedstat saw of the request threads is inside the server and is capped at its time; what they did
     * not see of it is "other"; the time outside is measured, not left unseen: on a full CPU it waited for the CPU, before
     * a saturated pool of platform threads for a free thread, else it is its own share (outside the server).
     *
     * @param serverS the server's own request time, seconds; NaN: not known (no dumps), everything unseen is "other"
     */
    public static Result compute(Seen seen, double requestS, double holdS, double cpuS, double runqueueS, int threads, int cpus,
                                 double samplePeriodS, SutCpu sut, int connections, double serverS) {
        return compute(seen, requestS, holdS, cpuS, runqueueS, threads, cpus, samplePeriodS, sut, connections, serverS, ReceiveQueues.NONE);
    }

    /**
     * The load's sockets with bytes in the kernel's receive queue, summed over instants (the dumps'): requests the server
     * had not read yet, answers the client had not read yet. Where the time outside the server was: on the server's side
     * of the connection (its poller or acceptor behind), or on the client's.
     */
    public record ReceiveQueues(int instants, int unreadByServer, int unreadByClient) {
        public static final ReceiveQueues NONE = new ReceiveQueues(0, 0, 0);
    }

    /** @param queues the load's sockets with bytes waiting at the dumps' instants (NONE: not read, e.g. on another host) */
    public static Result compute(Seen seen, double requestS, double holdS, double cpuS, double runqueueS, int threads, int cpus,
                                 double samplePeriodS, SutCpu sut, int connections, double serverS, ReceiveQueues queues) {
        return compute(seen, requestS, holdS, cpuS, runqueueS, threads, cpus, samplePeriodS, sut, connections, serverS, queues, -1);
    }

    /**
     * @param peakInServer the most requests one dump saw in the server (-1: not known): a pool of platform threads every
     *                     one of which a dump saw holding a request was saturated then, though the dumps' mean may read
     *                     less (a dump's jcmd starts a JVM on the generator's CPUs, and at that instant the client falls
     *                     behind: the sleep A/B's platform row read 150 of its 200 threads on average in a test run)
     */
    public static Result compute(Seen seen, double requestS, double holdS, double cpuS, double runqueueS, int threads, int cpus,
                                 double samplePeriodS, SutCpu sut, int connections, double serverS, ReceiveQueues queues, int peakInServer) {
        boolean oneAccount = !Double.isNaN(serverS) && requestS > 0;
        double server = oneAccount ? Math.min(serverS, requestS) : requestS;
        Map<Cause, Double> s = new EnumMap<>(Cause.class);
        boolean cpuEstimated = Double.isNaN(cpuS);
        s.put(Cause.CPU, cpuEstimated ? seen.samplesTotal() * samplePeriodS : cpuS);
        // a virtual thread queued for a carrier (the dumps) whose carrier itself waits for the CPU (schedstat) is one wait
        // seen twice: the larger sizes it, not the sum (summed, a computing request at one connection on one core read
        // its run queue over its CPU: 54% against 41%)
        double dumpedQueueS = seen.waitS().getOrDefault(Cause.RUNQUEUE, 0.0);
        boolean queueFromDumps = seen.waitS().containsKey(Cause.RUNQUEUE) && (Double.isNaN(runqueueS) || dumpedQueueS > runqueueS);
        if (!Double.isNaN(runqueueS) || seen.waitS().containsKey(Cause.RUNQUEUE)) {
            s.put(Cause.RUNQUEUE, queueFromDumps ? dumpedQueueS : runqueueS);
        }
        for (Cause c : List.of(Cause.MONITOR, Cause.PARK, Cause.POOL_WAIT, Cause.DB, Cause.DOWNSTREAM, Cause.SLEEP)) {
            s.put(c, seen.waitS().getOrDefault(c, 0.0));
        }
        // a pause stops every request in flight: its share of request time is its share of the hold
        double inFlight = holdS > 0 ? requestS / holdS : 0;
        s.put(Cause.GC, seen.gcPauseS() * inFlight);
        double seenS = s.values().stream().mapToDouble(Double::doubleValue).sum();
        // a platform request thread's events and schedstat seconds are time it held a request: the server's own time is at
        // least that, whatever the dumps' few instants read (the sleep A/B's platform row: 150 of 200 threads in the dumps,
        // 190 s asleep in JFR's events over a 1 s hold)
        if (oneAccount && !seen.virtualSeen()) server = Math.min(requestS, Math.max(server, seenS - s.getOrDefault(Cause.GC, 0.0)));
        // overlaps (a wait across a pause) and sampling error: what was seen of the request threads fills the server's time at most
        double scale = seenS > server && seenS > 0 ? server / seenS : 1;
        Map<Cause, Double> pct = new EnumMap<>(Cause.class);
        for (Cause c : Cause.values()) {
            if (c == Cause.OTHER || c == Cause.OUTSIDE) continue;
            Double v = s.get(c);
            pct.put(c, v == null ? null : requestS > 0 ? round(100 * v * scale / requestS) : 0);
        }
        double outside = oneAccount ? round(100 * (requestS - server) / requestS) : 0;
        double unseen = requestS > 0 ? round(Math.max(0, 100 * (server - seenS * scale) / requestS)) : 0, queued = 0, threadWait = 0;
        // a saturated pool of platform threads: the connections beyond the threads wait for one (the pool's queue); with the
        // server's own time measured, how busy the pool was is that time over the threads, and the wait is the time outside
        double busyS = oneAccount ? server : s.entrySet().stream().filter(e -> e.getKey() != Cause.GC && e.getValue() != null).mapToDouble(Map.Entry::getValue).sum();
        double poolBusy = threads > 0 && holdS > 0 ? busyS / (threads * holdS) : 0;
        if (oneAccount && threads > 0 && peakInServer > 0) poolBusy = Math.max(poolBusy, (double) peakInServer / threads);
        // not on a full CPU: there the threads the probe saw are those that got the CPU, fewer than the pool (Spring's
        // /cpu at 200 connections on Tomcat's 200 threads), and what the requests beyond them waited for is the CPU
        if (!sut.full() && !seen.virtualSeen() && connections > threads && threads > 0 && poolBusy >= SATURATED_POOL) {
            if (oneAccount && outside > 0) {
                threadWait = outside;
                outside = 0;
            } else if (!oneAccount && unseen > 0) {
                threadWait = round(Math.min(unseen, 100.0 * (connections - threads) / connections));
                unseen = round(unseen - threadWait);
            }
        }
        pct.put(Cause.THREAD_WAIT, threadWait > 0 ? threadWait : 0.0);
        if (sut.full() && unseen + outside > 0) { // the CPU was full: what no source saw, and what waited outside the server, waited for it
            queued = round(unseen + outside);
            pct.put(Cause.RUNQUEUE, round((pct.get(Cause.RUNQUEUE) == null ? 0 : pct.get(Cause.RUNQUEUE)) + queued));
            unseen = 0;
            outside = 0;
        }
        if (oneAccount) pct.put(Cause.OUTSIDE, outside);
        double behindGc = behindGc(pct.get(Cause.RUNQUEUE), seen.gcPauseS() * cpus, s.get(Cause.CPU));
        if (behindGc > 0) {
            pct.put(Cause.RUNQUEUE, round(pct.get(Cause.RUNQUEUE) - behindGc));
            pct.put(Cause.GC, round(pct.get(Cause.GC) + behindGc));
            queued = Math.max(0, queued - behindGc);
        }
        pct.put(Cause.OTHER, unseen);
        List<Map.Entry<Cause, Double>> measured = pct.entrySet().stream().filter(e -> e.getKey() != Cause.OTHER && e.getValue() != null)
                .sorted(Map.Entry.<Cause, Double>comparingByValue().reversed()).toList();
        Cause top = measured.isEmpty() ? Cause.CPU : measured.getFirst().getKey();
        double first = measured.isEmpty() ? 0 : measured.get(0).getValue(), second = measured.size() < 2 ? 0 : measured.get(1).getValue();
        // a cause dominates at half the request time, or at twice the next one and more than what no source saw
        boolean dominant = first >= DOMINANT_PCT || first > 0 && first >= DOMINANT_RATIO * second && first >= unseen;
        double queuedPct = queued, busyPool = poolBusy, serverSeconds = server;
        java.util.function.Function<Cause, String> evidenceOf = c -> c == Cause.RUNQUEUE && queuedPct > 0 ? queuedEvidence(queuedPct, seen, threads, cpus, runqueueS, sut)
                : c == Cause.OUTSIDE ? outsideEvidence(serverSeconds, holdS, connections, sut, queues)
                : c == Cause.THREAD_WAIT ? String.format(Locale.ROOT, "%d connections on %d request threads, busy %.0f%% of the hold: the"
                        + " requests beyond the threads waited in the connector's queue for a free one", connections, threads, 100 * Math.min(1, busyPool))
                : evidence(c, seen, queueFromDumps, threads, cpus, cpuEstimated, holdS)
                + (c == Cause.GC && behindGc > 0 ? String.format(Locale.ROOT, "; with %.0f%% of request time queued for the CPU behind its work", behindGc) : "");
        Cause runnerUp = measured.size() < 2 ? null : measured.get(1).getKey();
        // the bottleneck: the largest queue in front of the request's own work, when it is material, and none while the
        // probe did not see a fifth of the server's own time (what it missed could be larger than what it names)
        double serverPct = oneAccount ? round(100 * server / requestS) : Double.NaN;
        boolean unexplained = RequestTime.unexplained(unseen, serverPct);
        Cause queue = unexplained ? null : measured.stream().filter(e -> e.getKey().queue() && e.getValue() >= RequestTime.MATERIAL_QUEUE_PCT).map(Map.Entry::getKey)
                .findFirst().orElse(null);
        double own = round(pct.entrySet().stream().filter(e -> e.getKey().kind == RequestTime.Kind.OWN && e.getValue() != null)
                .mapToDouble(Map.Entry::getValue).sum());
        String queueEvidence = queue == null ? "" : queue == top ? evidenceOf.apply(top) : evidenceOf.apply(queue);
        if (queue != null && !queueEvidence.contains(CONSOLE)) queueEvidence += consoleAside(seen, requestS);
        return new Result(pct, top, dominant, runnerUp, evidenceOf.apply(top), owners(seen), scale < 1, queue, queueEvidence, own, serverPct);
    }

    /**
     * A queue for the CPU (or for a carrier) forms behind whatever holds it; the part of it behind GC's work is GC's: a
     * heap too small for its allocation rate keeps the one core collecting while the requests behind wait to run (the
     * GC control's virtual row: 49% paused, 49% queued for a carrier, 2% on the CPU). Split in proportion to the CPU
     * each held: GC's pauses on the SUT's CPUs against the request threads' own CPU time; the rest stays queued.
     *
     * @return percentage points of request time to move from the run queue to GC (0: none)
     */
    static double behindGc(Double runqueuePct, double gcCpuS, Double requestCpuS) {
        if (runqueuePct == null || !(runqueuePct > 0) || !(gcCpuS > 0)) return 0;
        double work = requestCpuS == null || Double.isNaN(requestCpuS) ? 0 : requestCpuS;
        return round(runqueuePct * gcCpuS / (gcCpuS + work));
    }

    /**
     * The breakdown: each cause's share of request time in percent (null: not measured), the largest measured one (never
     * "other"), whether it dominates, the next one, the largest one's evidence.
     */
    public record Result(Map<Cause, Double> pct, Cause top, boolean dominant, Cause second, String evidence, String cpuOwners, boolean scaled,
                         Cause queue, String queueEvidence, double ownPct, double serverPct) {
        /** A breakdown without the server's own time (no dumps): every share of the client's request time, the unseen "other". */
        public Result(Map<Cause, Double> pct, Cause top, boolean dominant, Cause second, String evidence, String cpuOwners, boolean scaled,
                      Cause queue, String queueEvidence, double ownPct) {
            this(pct, top, dominant, second, evidence, cpuOwners, scaled, queue, queueEvidence, ownPct, Double.NaN);
        }

        /** Whether the probe missed more than a fifth of the server's own request time: no bottleneck is named then. */
        public boolean unexplained() {
            Double other = pct.get(Cause.OTHER);
            return other != null && RequestTime.unexplained(other, serverPct);
        }

        public String topLine() {
            if (!dominant) {
                return String.format(Locale.ROOT, "no single cause dominates: %.0f%% of request time %s (%s)%s%s", pct.get(top), top.label, evidence,
                        second == null ? "" : String.format(Locale.ROOT, ", %.0f%% %s", pct.get(second), second.label),
                        pct.get(Cause.OTHER) > 0 ? String.format(Locale.ROOT, "; %.0f%% not seen by the probe", pct.get(Cause.OTHER)) : "");
            }
            return String.format(Locale.ROOT, "%.0f%% of request time %s (%s)", pct.get(top), top.label, evidence);
        }
    }

    /**
     * What the slowest requests waited on: a request beyond the p99 took at least p99, so a single wait of half of it
     * or more is enough alone to make a request that slow. Such waits by cause (count, longest, what the most of them
     * waited on), largest total first; when none was that long, what the slowest requests waited on is no one wait the
     * probe saw (queueing for the CPU, for a thread, many short waits), and the line says so with the breakdown's
     * largest cause. Virtual threads' parks and blocked enters are not in JFR (the thread dumps count them in the
     * breakdown, not per wait): the line says so on virtual rows.
     *
     * @param p99Ms the profiled hold's p99
     */
    public static String tail(Seen seen, double p99Ms, Result breakdown, boolean virtual) {
        return tail(seen, p99Ms, breakdown, virtual, DumpSeen.NONE);
    }

    /**
     * As above; where JFR recorded no long wait of a virtual row (its parks and blocked enters are no events), the thread
     * dumps taken in the hold name the queue most virtual request threads were in: a monitor behind the virtual tail is
     * named as it is for platform.
     */
    public static String tail(Seen seen, double p99Ms, Result breakdown, boolean virtual, DumpSeen dumps) {
        if (!(p99Ms > 0)) return "";
        double floorS = p99Ms / 2 / 1000;
        Map<Cause, List<Wait>> longWaits = new EnumMap<>(Cause.class);
        // a server reading its client's request is no cause of the request's time (the client had not sent it yet)
        for (Wait w : seen.waits()) if (w.seconds() >= floorS && w.cause() != Cause.OTHER) longWaits.computeIfAbsent(w.cause(), k -> new ArrayList<>()).add(w);
        String head = String.format(Locale.ROOT, "the slowest 1%% (p99 %.1f ms): ", p99Ms);
        if (longWaits.isEmpty()) {
            String dumped = virtual ? dumpedQueue(dumps) : null;
            if (dumped != null) {
                return head + String.format(Locale.ROOT, "no single wait of %.1f ms or more in JFR (a virtual thread's park or blocked enter is no"
                        + " JFR event); the thread dumps: %s", p99Ms / 2, dumped);
            }
            return head + String.format(Locale.ROOT, "no single wait of %.1f ms or more seen: their time was queueing or many short waits"
                    + " (the breakdown's largest: %s)%s", p99Ms / 2, breakdown.top().label,
                    virtual ? "; a virtual thread's park or blocked enter is no JFR event" : "");
        }
        List<String> parts = new ArrayList<>();
        longWaits.entrySet().stream()
                .sorted(Map.Entry.<Cause, List<Wait>>comparingByValue(java.util.Comparator.comparingDouble(l -> -l.stream().mapToDouble(Wait::seconds).sum())))
                .forEach(e -> {
                    List<Wait> l = e.getValue();
                    double longest = l.stream().mapToDouble(Wait::seconds).max().orElse(0);
                    String most = l.stream().collect(Collectors.groupingBy(Wait::what, Collectors.counting())).entrySet().stream()
                            .max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse("");
                    parts.add(String.format(Locale.ROOT, "%s %,d (longest %.0f ms; %s)", e.getKey().label, l.size(), longest * 1000, most));
                });
        return head + String.format(Locale.ROOT, "waits of %.1f ms or more, each enough alone: ", p99Ms / 2) + String.join("; ", parts);
    }

    /**
     * The queue the dumps saw most virtual request threads in (a monitor, a lock, a pool; not the run queue, which is
     * the breakdown's), "12 of 40 virtual request threads in 4 dumps blocked on a monitor (lock a.Ledger in a.S.doGet)";
     * null when they saw none.
     */
    static String dumpedQueue(DumpSeen dumps) {
        if (dumps == null || dumps.observations() == 0) return null;
        return dumps.counts().entrySet().stream().filter(e -> e.getKey() != Cause.RUNQUEUE && e.getKey().queue() && e.getValue() > 0)
                .max(Map.Entry.comparingByValue()).map(e -> {
                    String what = dumps.evidence().getOrDefault(e.getKey(), Map.of()).entrySet().stream().max(Map.Entry.comparingByValue())
                            .map(Map.Entry::getKey).orElse("");
                    return String.format(Locale.ROOT, "%d of %d virtual request threads in %d dumps %s%s", e.getValue(), dumps.observations(),
                            dumps.dumps(), e.getKey().label, what.isEmpty() ? "" : " (" + what + ")");
                }).orElse(null);
    }

    /**
     * Evidence for the client's request time no request thread held: how many requests were in the server at an average
     * instant (the dumps) against the client's connections, and where the rest can be.
     */
    static String outsideEvidence(double serverS, double holdS, int connections, SutCpu sut, ReceiveQueues queues) {
        String s = String.format(Locale.ROOT, "%.0f requests inside the server at an average instant (thread dumps)", holdS > 0 ? serverS / holdS : 0);
        if (connections > 0) s += String.format(Locale.ROOT, " of the client's %d connections", connections);
        if (queues.instants() > 0) {
            s += String.format(Locale.ROOT, "; at the same instants %.0f requests the server had not read yet and %.0f answers the client had not"
                    + " read yet (the connections' kernel receive queues)", (double) queues.unreadByServer() / queues.instants(),
                    (double) queues.unreadByClient() / queues.instants());
        } else {
            s += ": the rest waited in the kernel's accept or receive queue, the server's poller, the network or the client";
        }
        if (!Double.isNaN(sut.busy())) s += String.format(Locale.ROOT, "; the SUT's CPUs %.0f%% busy", 100 * sut.busy());
        if (!Double.isNaN(sut.othersRunqueueS()) && !sut.othersTop().isEmpty()) {
            s += String.format(Locale.ROOT, "; the server's other threads waited %.1f s to run (%s)", sut.othersRunqueueS(), sut.othersTop());
        }
        return s;
    }

    /**
     * Requests waiting on the console's lock, when they are not the bottleneck itself: "; also in front of the requests:
     * the console's lock (…) written from org.hibernate…SqlStatementLogger.logStatement [9 of 1025 virtual threads in 4
     * dumps, …], 3% of request time"; "" when nothing waited there. A lock every request takes to log is said wherever it
     * is, since switching the logging off is a lever of its own.
     */
    static String consoleAside(Seen seen, double requestS) {
        List<String> parts = new ArrayList<>();
        for (Cause c : List.of(Cause.MONITOR, Cause.PARK)) {
            seen.evidence().getOrDefault(c, Map.of()).entrySet().stream().filter(e -> e.getKey().startsWith(CONSOLE))
                    .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                    .forEach(e -> parts.add(String.format(Locale.ROOT, "%s, %.0f%% of request time", e.getKey(), requestS > 0 ? 100 * e.getValue() / requestS : 0)));
        }
        return parts.isEmpty() ? "" : "; also in front of the requests: " + String.join("; ", parts);
    }

    /** Evidence for time that waited for a full CPU before a worker took the request. */
    static String queuedEvidence(double queuedPct, Seen seen, int threads, int cpus, double runqueueS, SutCpu sut) {
        boolean others = !(sut.busy() >= FULL_CPU) && sut.coresBusy() >= FULL_CPU;
        StringBuilder sb = new StringBuilder(others
                ? String.format(Locale.ROOT, "the SUT's CPU full: %.0f%% busy on %d CPU%s, the SUT's own threads %.0f%%, the rest other processes or the kernel's network interrupts",
                        100 * sut.coresBusy(), cpus, cpus == 1 ? "" : "s", 100 * sut.busy())
                : String.format(Locale.ROOT, "the SUT's CPU full: %.0f%% busy on %d CPU%s", 100 * sut.busy(), cpus, cpus == 1 ? "" : "s"));
        sb.append(String.format(Locale.ROOT, "; %.0f%% of request time queued before a worker took the request", queuedPct));
        if (!Double.isNaN(runqueueS)) sb.append(String.format(Locale.ROOT, "; %d request threads %.1f s in the run queue", threads, runqueueS));
        if (!Double.isNaN(sut.othersRunqueueS()) && !sut.othersTop().isEmpty()) {
            sb.append(String.format(Locale.ROOT, "; the server's other threads waited %.1f s to run (%s)", sut.othersRunqueueS(), sut.othersTop()));
        }
        if (seen.evidence().containsKey(Cause.RUNQUEUE)) sb.append("; virtual threads queued for a carrier (thread dumps)");
        return sb.toString();
    }

    /** CPU samples by owner, largest first: "the service's own code 62%;the JDK 20%". */
    static String owners(Seen seen) {
        if (seen.samplesTotal() == 0) return "";
        return seen.samples().entrySet().stream().sorted(Map.Entry.<Owner, Integer>comparingByValue().reversed())
                .map(e -> String.format(Locale.ROOT, "%s %.0f%%", e.getKey().label, 100.0 * e.getValue() / seen.samplesTotal()))
                .collect(Collectors.joining(";"));
    }

    /** @param queueFromDumps the run queue was sized by the thread dumps (larger than the carriers' own wait for the CPU) */
    static String evidence(Cause top, Seen seen, boolean queueFromDumps, int threads, int cpus, boolean cpuEstimated, double holdS) {
        return switch (top) {
            case CPU -> {
                String owner = seen.samples().entrySet().stream().max(Map.Entry.comparingByValue())
                        .map(e -> String.format(Locale.ROOT, "most of it in %s, %.0f%% of samples", e.getKey().label,
                                100.0 * e.getValue() / Math.max(1, seen.samplesTotal()))).orElse("no execution samples");
                String frame = seen.topFrames().entrySet().stream().max(Map.Entry.comparingByValue())
                        .map(e -> "; top frame " + e.getKey() + " (" + e.getValue() + " samples)").orElse("");
                yield owner + frame + (cpuEstimated ? "; CPU time estimated from the samples" : "");
            }
            case RUNQUEUE -> queueFromDumps
                    ? String.format(Locale.ROOT, "virtual threads queued for one of %d carriers on %d CPU%s (thread dumps)%s", threads, cpus, cpus == 1 ? "" : "s",
                            seen.evidence().getOrDefault(Cause.RUNQUEUE, Map.of()).keySet().stream().filter(k -> k.startsWith(QUEUED_FOR_CARRIER) && k.contains(" ["))
                                    .findFirst().map(k -> k.substring(k.indexOf(" ["))).orElse(""))
                            // the ones that put themselves there: a spin, named with its frame and its share of the dumps
                            + seen.evidence().getOrDefault(Cause.RUNQUEUE, Map.of()).keySet().stream().filter(k -> k.startsWith(YIELDING)).sorted()
                                    .map(k -> "; " + k).collect(java.util.stream.Collectors.joining())
                    : String.format(Locale.ROOT, "%d request threads on %d CPU%s", threads, cpus, cpus == 1 ? "" : "s");
            case GC -> String.format(Locale.ROOT, "%d pauses, %.0f ms of the %.0f s hold", seen.gcPauses(), seen.gcPauseS() * 1000, holdS);
            case OTHER -> seen.virtualSeen()
                    ? "virtual threads parked or blocked off their carrier (JFR records neither; thread dumps, when taken, name them), waits under the threshold, or before a thread took the request"
                    : "waits under the threshold, or queued before a thread took the request";
            default -> {
                Map<String, Double> ev = seen.evidence().getOrDefault(top, Map.of());
                double sum = ev.values().stream().mapToDouble(Double::doubleValue).sum();
                yield ev.entrySet().stream().max(Map.Entry.comparingByValue())
                        .map(e -> String.format(Locale.ROOT, "%s, %.0f%% of it", e.getKey(), sum > 0 ? 100 * e.getValue() / sum : 0))
                        .orElse("");
            }
        };
    }

    /** The seconds of an event inside [from, to] (an instant event: 0). */
    static double overlapS(RecordedEvent e, Instant from, Instant to) {
        Instant a = e.getStartTime(), b = e.getEndTime();
        if (from != null && a.isBefore(from)) a = from;
        if (to != null && b.isAfter(to)) b = to;
        return b.isAfter(a) ? Duration.between(a, b).toNanos() / 1e9 : 0;
    }

    static boolean within(Instant t, Instant from, Instant to) {
        return (from == null || !t.isBefore(from)) && (to == null || !t.isAfter(to));
    }

    static String type(RecordedFrame f) {
        return f.getMethod() == null || f.getMethod().getType() == null ? "" : f.getMethod().getType().getName();
    }

    static boolean any(String type, List<String> prefixes) {
        for (String p : prefixes) if (type.startsWith(p)) return true;
        return false;
    }

    static boolean hasMethod(List<RecordedFrame> frames, String prefix) {
        for (RecordedFrame f : frames) if (f.getMethod() != null && (type(f) + "." + f.getMethod().getName()).startsWith(prefix)) return true;
        return false;
    }

    static boolean hasFrame(List<RecordedFrame> frames, List<String> prefixes) {
        for (RecordedFrame f : frames) if (any(type(f), prefixes)) return true;
        return false;
    }

    /** The outermost-called (nearest the top) frame of these packages, "Class.method". */
    static String firstOf(List<RecordedFrame> frames, List<String> prefixes, String none) {
        for (RecordedFrame f : frames) if (any(type(f), prefixes)) return simple(f);
        return none;
    }

    /** The frame nearest the top of the stack outside the JDK, "package.Class.method"; the top frame if all are the JDK's. */
    static String leafOutsideJdk(List<RecordedFrame> frames) {
        for (RecordedFrame f : frames) if (!any(type(f), JDK)) return type(f) + "." + f.getMethod().getName();
        return frames.isEmpty() ? "(no stack)" : type(frames.getFirst()) + "." + frames.getFirst().getMethod().getName();
    }

    static String simple(RecordedFrame f) {
        return type(f) + "." + f.getMethod().getName();
    }

    static String className(RecordedEvent e, String field) {
        if (!e.hasField(field) || e.getValue(field) == null) return "?";
        return e.getClass(field).getName();
    }

    static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }

    /** The database ports a service is given: host:port of every jdbc:...// URL in its environment. */
    public static Set<Integer> dbPorts(Env env) {
        Set<Integer> out = new TreeSet<>();
        java.util.regex.Pattern p = java.util.regex.Pattern.compile("jdbc:[a-z0-9]+:(?:[a-z0-9]+:)?//[^/:,?]+:(\\d+)");
        for (String v : env.asMap().values()) {
            java.util.regex.Matcher m = p.matcher(v == null ? "" : v);
            while (m.find()) out.add(Integer.parseInt(m.group(1)));
        }
        return out;
    }

    /** The shares as "cause pct" pairs, for a line of text. */
    public static String render(Map<Cause, Double> pct) {
        List<String> parts = new ArrayList<>();
        pct.forEach((c, v) -> {
            if (v != null && v > 0) parts.add(String.format(Locale.ROOT, "%s %.0f%%", c.key, v));
        });
        return String.join(", ", parts);
    }

    static <K> Map<K, Double> sorted(Map<K, Double> m) {
        return m.entrySet().stream().sorted(Map.Entry.<K, Double>comparingByValue().reversed())
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, LinkedHashMap::new));
    }
}
