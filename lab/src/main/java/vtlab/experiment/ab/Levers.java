package vtlab.experiment.ab;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import vtlab.check.JarLibraries.Library;
import vtlab.check.KnownLibraries;
import vtlab.core.UsageError;
import vtlab.data.Columns;
import vtlab.data.DataRow;
import vtlab.data.RequestTime.Cause;
import vtlab.data.Rows;
import vtlab.plan.Row;
import vtlab.stack.ThreadMode.Threads;
import vtlab.tier.MavenArtifact;
import vtlab.tier.tool.Jdk;

/**
 * What ab's next step can change in a service without touching its code or its files, each lever declared beside the
 * cause of request time it answers ({@link Cause}): where its value goes (a program argument, a JVM option, an
 * environment variable of the row: nothing is written into the jar or beside it), which services and thread modes it
 * fits, how its present value is read, and the values tried (the lab's own: twice and four times the present value;
 * a user's {@code --lever}: the values given). For a cause no lever answers, {@link #ADVICE} says what would help
 * instead. One table rather than a class per lever, as {@code check.KnownLibraries} is one table: a lever is a few
 * declared fields and one way to read its present value, and the next step reads them all to choose.
 */
final class Levers {
    private Levers() {}

    /** The params key a variant row carries: "pool:20", a user's "DB_POOL:20" (the lever's name, its value). */
    static final String PARAM = "lever";

    /** Where a lever's value goes in the row. */
    enum Where {
        /** A program argument, NAME=VALUE (a Spring Boot property on its command line overrides every other source). */
        ARG,
        /** A JVM option (a --cmd gets it in JAVA_TOOL_OPTIONS): -XmxVALUE, -DNAME=VALUE. */
        JVM,
        /** An environment variable of the service, NAME=VALUE. */
        ENV,
        /** How the service is launched: a Spring Boot jar run extracted (see {@link Extracted}). */
        LAUNCH,
        /** The JDK the service runs on (ab's --jdk): the lab's own. */
        JDK,
        /**
         * A library of the jar at another version (GROUP:ARTIFACT:VERSION from Maven Central), the jar run extracted
         * with that version's jar in the place of the shipped one ({@link Extracted}): the jar on disk untouched.
         */
        LIBRARY,
        /** The service's own switch, off: program arguments with fixed values (its SQL logged to the console). */
        SWITCH
    }

    /**
     * What is known of the service when a lever's present value is read.
     *
     * @param springBoot whether the jar is a Spring Boot jar (its properties are levers)
     * @param command    a --cmd's command line (null for a jar): a -Xmx there beats JAVA_TOOL_OPTIONS
     * @param args       the row's program arguments
     * @param jvmArgs    the row's JVM options from the lab (--jvm-args, carriers)
     * @param row        the row as measured (matrix.csv): what the probes read of the present value
     * @param memoryMb   this machine's memory, MB (the JVM's default heap is a quarter of it)
     * @param libraries  the libraries in the service's jar (empty for a --cmd, or a jar not read)
     */
    record Known(boolean springBoot, String command, List<String> args, List<String> jvmArgs, DataRow row, long memoryMb, List<Library> libraries) {
        Known(boolean springBoot, String command, List<String> args, List<String> jvmArgs, DataRow row, long memoryMb) {
            this(springBoot, command, args, jvmArgs, row, memoryMb, List.of());
        }
    }

    /** Reads a lever's present value, null when it cannot be known. */
    interface Current {
        Long of(Known k);
    }

    /**
     * @param name        short name, in the variant's params and the verdict ("pool 20")
     * @param answers     the cause it answers; null: a user's lever without one, tried whatever the largest cause
     * @param words       what it changes, for the verdict and the docs
     * @param where       where its value goes
     * @param key         the argument's, option's or variable's name ("--spring.datasource.hikari.maximum-pool-size")
     * @param also        more arguments set to the same value (the pool's minimum-idle: a fixed-size pool)
     * @param springBoot  whether it fits a Spring Boot jar only
     * @param mode        the thread mode it fits (platform: Tomcat's thread pool), null: both
     * @param current     its present value (lab levers), null for a user's lever
     * @param demand      what the load asked for, if the probes saw it (the pool: the most requests holding or waiting
     *                    for a connection at once), the second value instead of four times; null: four times
     * @param unit        "m" for a heap in MB, "" for a count
     * @param given       a user's values, null for the lab's (twice the present value, then four times or the demand)
     */
    record Lever(String name, Cause answers, String words, Where where, String key, List<String> also, boolean springBoot, String mode,
                 Current current, Current demand, String unit, List<String> given) {
        /** A service's own switch, tried for a finding beside the bottleneck (the console on the request's path), not for it. */
        boolean aside() {
            return where == Where.SWITCH;
        }

        /** Whether it can be pulled on this service's rows of this thread mode, for this cause. */
        boolean fits(Known k, String threadMode, Cause cause) {
            if (springBoot && !k.springBoot()) return false;
            if (mode != null && !mode.equals(threadMode)) return false;
            // extracted answers the nested-jar loader: its monitors (not a monitor in the service's own code), or a full
            // CPU whose largest owner it is (PetClinic's virtual rows: requests queued for a CPU busy in the loader)
            if (where == Where.LAUNCH) return nestedJarLoaderIn(k.row(), cause);
            // the JDK answers pinning, whatever cause the pins made (requests queued for a carrier, or the pinned ones' own waits)
            if (where == Where.JDK) return pinnedCarriers(k) >= PINNED_CARRIERS && k.row().num(Columns.JDK) < UNPINNED_JDK && Jdk.current().major() >= UNPINNED_JDK;
            // a known defect of a library in the jar, met on the row's JDK, bearing on this cause, with a release that fixes it
            if (where == Where.LIBRARY) return !fixes(k, cause).isEmpty();
            // the one switch so far, SQL logging: the console on the request's path, in a jar that ships Hibernate
            if (where == Where.SWITCH) return consoleOnThePath(k.row()) && k.libraries().stream().anyMatch(l -> l.artifact().equals(HIBERNATE));
            // a full CPU and the queue for it are one cause to a user: a lever for either answers both
            if (answers != null && answers != cause && !(cpuOrItsQueue(answers) && cpuOrItsQueue(cause))) return false;
            // a command's own -Xmx is read after JAVA_TOOL_OPTIONS: the lab's would change nothing
            return !(where == Where.JVM && key.equals("-Xmx") && k.command() != null && k.command().contains("-Xmx"));
        }

        /**
         * The values to try, in order: a user's as given; the lab's twice the present one, then what the load asked for
         * when the probes saw it and it is more, else four times (none when the present value is not known).
         */
        List<String> values(Known k) {
            if (given != null) return given;
            if (where == Where.LAUNCH) return List.of(key);
            if (where == Where.JDK) return List.of(Integer.toString(Jdk.current().major()));
            if (where == Where.LIBRARY) return fixes(k, null).stream().map(MavenArtifact::coordinates).toList();
            if (where == Where.SWITCH) return List.of(SWITCH_OFF);
            Long now = current.of(k);
            if (now == null || now <= 0) return List.of();
            Long asked = demand == null ? null : demand.of(k);
            List<String> out = new ArrayList<>();
            for (long v : asked == null ? new long[] {2 * now, 4 * now} : asked > 2 * now ? new long[] {2 * now, asked} : new long[] {2 * now}) {
                if (unit.equals("m") && v > k.memoryMb() / 2) break; // never more heap than half the machine
                out.add(v + unit);
            }
            return out;
        }

        /** The present value in words ("10", "512m"), or null. */
        String now(Known k) {
            Long v = current == null ? null : current.of(k);
            return v == null ? null : v + unit;
        }

        /** "pool 20", a user's "DB_POOL=20". */
        String label(String value) {
            return switch (where) {
                case LAUNCH -> "run " + value;
                case JDK -> "JDK " + value;
                case LIBRARY -> {
                    MavenArtifact a = MavenArtifact.parse(value);
                    yield a.artifact() + " " + a.version();
                }
                case SWITCH -> name + " " + value;
                default -> given == null ? name + " " + value : name + "=" + value;
            };
        }

        /** The row with this lever at value, as a variant: its params say so (and make its scenario its own). */
        Row apply(Row base, String value) {
            Row.Builder b = base.toBuilder().params(base.params().with(PARAM, name + ":" + value));
            switch (where) {
                case ARG -> {
                    List<String> args = replaced(base.appArgs(), key + "=", key + "=" + value);
                    for (String k : also) args = replaced(args, k + "=", k + "=" + value);
                    b.appArgs(args);
                }
                case JVM -> b.jvmArgs(key.equals("-Xmx") ? replaced(base.jvmArgs(), "-Xmx", "-Xmx" + value)
                        : replaced(base.jvmArgs(), key + "=", key + "=" + value));
                case ENV -> b.sutEnv(base.sutEnv().with(key, value));
                case LAUNCH -> b.stack(Extracted.stack(base.stack(), base.jdk()));
                case JDK -> b.jdk(Jdk.current());
                case LIBRARY -> b.stack(Extracted.stack(base.stack(), base.jdk(), MavenArtifact.parse(value)));
                case SWITCH -> {
                    List<String> args = base.appArgs();
                    for (String kv : also) args = replaced(args, kv.substring(0, kv.indexOf('=') + 1), kv);
                    b.appArgs(args);
                }
            }
            return b.build();
        }
    }

    /** The arguments without those starting with prefix, then the new one. */
    static List<String> replaced(List<String> args, String prefix, String arg) {
        List<String> out = new ArrayList<>(args.stream().filter(a -> !a.startsWith(prefix)).toList());
        out.add(arg);
        return List.copyOf(out);
    }

    static final String POOL_KEY = "--spring.datasource.hikari.maximum-pool-size", POOL_MIN_KEY = "--spring.datasource.hikari.minimum-idle",
            THREADS_KEY = "--server.tomcat.threads.max";

    /**
     * HikariCP's pool: given on the command line, else the most connections busy in a hold where requests waited for
     * one (the pool was full). Doubled first; then the pool the load asked for, the most requests holding or waiting
     * for a connection at once (a pool below it still queues them: with the connection held across a call, about every
     * request in flight), else four times. Its minimum-idle goes with it: a fixed-size pool, as HikariCP recommends (a
     * service that keeps fewer idle connections opens the rest under the load, or, as the lab's own rig, waits at
     * start-up for a pool that never fills).
     */
    static final Lever POOL = new Lever("pool", Cause.POOL_WAIT,
            "HikariCP's pool size (spring.datasource.hikari.maximum-pool-size and minimum-idle, program arguments: a fixed-size pool)",
            Where.ARG, POOL_KEY, List.of(POOL_MIN_KEY), true, null,
            k -> {
                Long given = argValue(k.args(), POOL_KEY);
                if (given != null) return given;
                double active = k.row().num(Columns.HIKARI_ACTIVE_MAX), pending = k.row().num(Columns.HIKARI_PENDING_MAX);
                return active > 0 && pending > 0 ? Long.valueOf((long) active) : null;
            },
            k -> {
                double active = k.row().num(Columns.HIKARI_ACTIVE_MAX), pending = k.row().num(Columns.HIKARI_PENDING_MAX);
                return active > 0 && pending > 0 ? Long.valueOf((long) (active + pending)) : null;
            }, "", null);

    /** Tomcat's request threads: given on the command line, else as the breakdown counted them, else Spring Boot's default (200). */
    static final Lever THREADS = new Lever("threads", Cause.THREAD_WAIT,
            "Tomcat's request threads (server.tomcat.threads.max, a program argument)", Where.ARG, THREADS_KEY, List.of(), true, Threads.PLATFORM.word,
            k -> {
                Long given = argValue(k.args(), THREADS_KEY);
                if (given != null) return given;
                Matcher m = Pattern.compile("on (\\d+) request threads").matcher(vtlab.data.RequestTime.evidence(k.row()));
                return m.find() ? Long.valueOf(m.group(1)) : 200L;
            }, null, "", null);

    /** The heap: --jvm-args' -Xmx, else what the JVM took under a memory limit, else its default (a quarter of the machine's memory). */
    static final Lever HEAP = new Lever("heap", Cause.GC, "the JVM's maximum heap (-Xmx, a JVM option)", Where.JVM, "-Xmx", List.of(), false, null,
            k -> {
                Long xmx = null;
                for (String a : k.jvmArgs()) if (a.startsWith("-Xmx")) xmx = megabytes(a.substring(4));
                if (xmx != null) return xmx;
                double limited = k.row().num(Columns.JVM_MAX_HEAP);
                if (limited > 0) return (long) limited;
                return k.memoryMb() > 0 ? Long.valueOf(k.memoryMb() / 4) : null;
            }, null, "m", null);

    /**
     * A Spring Boot jar run extracted: its classes from plain jars, not through the nested-jar class loader whose
     * monitors the requests queued on (a resource looked up in the fat jar on every request, as Spring PetClinic's).
     */
    static final Lever EXTRACTED = new Lever("launch", Cause.MONITOR,
            "the jar run extracted (java -Djarmode=tools -jar APP.jar extract, then java -jar the extracted APP.jar: Spring Boot's own advice"
                    + " for production), its classes no longer loaded through the nested-jar loader", Where.LAUNCH, "extracted", List.of(), true, null, k -> null, null, "", null);

    /**
     * A library of the service's jar with a known defect for virtual threads (check.KnownLibraries) that bears on the
     * cause and is fixed in a release: that release's jar in the shipped one's place, the rest of the jar as it is.
     * HikariCP before 7.1.0 spins on Thread.yield() while a borrower waits (its virtual threads yield, back in the
     * carrier's queue), which the dumps show as requests queued for a carrier while the CPU had room.
     */
    static final Lever LIBRARY = new Lever("library", null, "a library of the jar at the release that fixes its known defect (Maven Central's jar in the"
            + " place of the shipped one, the jar run extracted; the jar on disk untouched)", Where.LIBRARY, "", List.of(), true, null, k -> null, null, "", null);

    /** The artifact whose SQL logger writes to the console when spring.jpa.show-sql is on. */
    static final String HIBERNATE = "hibernate-core";

    /** The value a switch lever is tried at. */
    static final String SWITCH_OFF = "off";

    /**
     * A Spring Boot service that writes its SQL to the console (spring.jpa.show-sql, Hibernate's SqlStatementLogger):
     * every request's statements go through System.out, one lock for all requests, and its CPU to format them. Tried
     * when the row's evidence shows the console on the request's path (its CPU samples writing logs, or requests
     * waiting on the console's lock).
     */
    static final Lever SQL_LOG = new Lever("sql-log", null, "the service's SQL logging (spring.jpa.show-sql=false and Hibernate's SQL logger at WARN,"
            + " program arguments)", Where.SWITCH, "--spring.jpa.show-sql", List.of("--spring.jpa.show-sql=false", "--logging.level.org.hibernate.SQL=WARN"),
            true, null, k -> null, null, "", null);

    /** What shows the console on the request's path: its share of the CPU samples, or the requests waiting on its lock. */
    static boolean consoleOnThePath(DataRow row) {
        Double logs = vtlab.data.RequestTime.ownerShares(row).get(vtlab.data.RequestTime.WRITING_LOGS);
        return (logs != null && logs >= OVERHEAD_PCT) || vtlab.data.RequestTime.evidence(row).contains(vtlab.probe.TimeBreakdown.CONSOLE);
    }

    /**
     * The fixed releases of the jar's libraries whose known defect is met on the row's JDK and (cause not null) bears on
     * the cause, in the jar's order: "com.zaxxer:HikariCP:7.1.0" for a jar with HikariCP 7.0.2.
     */
    static List<MavenArtifact> fixes(Known k, Cause cause) {
        if (!k.springBoot() || k.libraries().isEmpty()) return List.of();
        double jdk = k.row().num(Columns.JDK);
        List<Integer> jdks = Double.isNaN(jdk) ? List.of() : List.of((int) jdk);
        List<MavenArtifact> out = new ArrayList<>();
        for (Defect d : defects(k.libraries(), jdks, cause, vtlab.data.RequestTime.evidence(k.row()))) {
            if (d.entry().fixedIn() == null) continue;
            MavenArtifact a = new MavenArtifact(d.finding().group(), d.finding().library().artifact(), d.entry().fixedIn());
            if (!out.contains(a)) out.add(a);
        }
        return out;
    }

    /** A known defect of one of the jar's libraries: the library as the jar has it, and the table's entry that affects it. */
    record Defect(KnownLibraries.Finding finding, KnownLibraries.Entry entry) {}

    /**
     * The jar's known defects met on one of the JDKs (on any when none is known) and, cause not null, bearing on the
     * cause ({@link #concerns}): the one reading of the table that the lever ({@link #fixes}) and the next step's
     * sentence both use.
     */
    static List<Defect> defects(List<Library> libraries, List<Integer> jdks, Cause cause, String evidence) {
        List<Defect> out = new ArrayList<>();
        for (KnownLibraries.Finding f : KnownLibraries.check(libraries, jdks)) {
            for (KnownLibraries.Entry e : f.affecting()) {
                boolean met = jdks.isEmpty() || jdks.stream().anyMatch(e.effect()::on);
                if (met && (cause == null || concerns(cause, e, evidence))) out.add(new Defect(f, e));
            }
        }
        return out;
    }

    /** JEP 491: from JDK 24 a virtual thread blocked in synchronized (or in Object.wait) unmounts, its carrier free. */
    static final int UNPINNED_JDK = 24;
    /** The share of the carriers' time pinned from which the JDK is a lever: a quarter of it (see {@link #pinnedCarriers}). */
    static final double PINNED_CARRIERS = 0.25;

    /**
     * The lab's own JDK for a virtual row on JDK 21-23 whose carriers were pinned a quarter of the hold or more: where a
     * virtual thread blocks in synchronized (a query or a call inside it) it keeps its carrier, and the other requests
     * queue for the few carriers left; JDK 24 and later unmount it (JEP 491). The service's code and jar are unchanged.
     */
    static final Lever JDK = new Lever("jdk", null, "the JDK the service runs on: the lab's own (JDK 24 and later unmount a virtual thread"
            + " blocked in synchronized instead of pinning its carrier, JEP 491)", Where.JDK, "", List.of(), false, Threads.VIRTUAL.word,
            k -> {
                double jdk = k.row().num(Columns.JDK);
                return Double.isNaN(jdk) ? null : Long.valueOf((long) jdk);
            }, null, "", null);

    static boolean cpuOrItsQueue(Cause c) {
        return c == Cause.CPU || c == Cause.RUNQUEUE;
    }

    /** The lab's own levers, in the order they are tried. */
    static final List<Lever> ALL = List.of(POOL, THREADS, HEAP, EXTRACTED, JDK, LIBRARY, SQL_LOG);

    /**
     * The share of the carriers' time the row's virtual threads spent pinned (jfr-pinning's pinned_total_ms over the
     * carriers × the hold): the share of request time would hide it, since while one request holds the only carrier the
     * others wait unpinned. 0 when the row has no pinning probe or no pins.
     */
    static double pinnedCarriers(Known k) {
        double pinnedMs = k.row().num(Columns.PINNED_TOTAL_MS), holdS = k.row().num(Columns.DURATION_S);
        int carriers = carriers(k);
        if (Double.isNaN(pinnedMs) || pinnedMs <= 0 || Double.isNaN(holdS) || holdS <= 0 || carriers <= 0) return 0;
        return pinnedMs / 1000 / (carriers * holdS);
    }

    /**
     * The carriers the row's JVM ran: as it reported them (the container probe), else as set on its command line (a
     * tuned row's), else the JVM's own default, one per CPU it was pinned to; 0 when none is known.
     */
    static int carriers(Known k) {
        double reported = k.row().num(Columns.JVM_VT_PARALLELISM);
        if (reported > 0) return (int) reported;
        Long set = argValue(k.jvmArgs(), "-D" + vtlab.plan.PlanContext.CARRIERS_PROPERTY);
        if (set != null && set > 0) return set.intValue();
        try {
            return vtlab.proc.CoreMap.parse(k.row().text(Columns.APP_CPUS), Integer.MAX_VALUE).length;
        } catch (IllegalArgumentException e) {
            return 0;
        }
    }

    /** What would help when no lever answers the cause (or none fits the service), beside the cause. */
    static final Map<Cause, String> ADVICE = advice();

    private static Map<Cause, String> advice() {
        Map<Cause, String> m = new EnumMap<>(Cause.class);
        m.put(Cause.CPU, "less work per request (the flame graph's widest frames) or more cores: no setting buys CPU");
        m.put(Cause.RUNQUEUE, "the CPU was full: more cores or less work per request; more threads or carriers would only queue longer");
        m.put(Cause.MONITOR, "a shorter critical section around that lock, or one lock per key; on JDK 21-23 a ReentrantLock also stops the pinning");
        m.put(Cause.PARK, "less time holding that lock or condition, or fewer requests contending for it");
        m.put(Cause.THREAD_WAIT, "more request threads (the server's pool size: --lever NAME=V,V tries it) or virtual threads");
        m.put(Cause.POOL_WAIT, "a larger connection pool (the service's own pool-size setting: --lever NAME=V,V tries it) or less time holding a connection");
        m.put(Cause.DB, "the database's own time: the query (its plan, an index) or the database's CPU; a larger pool adds load there, not speed");
        m.put(Cause.DOWNSTREAM, "the downstream's own latency: a cache, calls in parallel, or a timeout; more threads would only wait longer");
        m.put(Cause.SLEEP, "nothing to set: the request's own sleep is its floor, and nothing queues in front of it");
        m.put(Cause.GC, "a larger heap (-Xmx where the service sets it) or less allocation per request");
        m.put(Cause.OUTSIDE, "requests the server had not read yet: its poller and acceptor (one thread each beside the request threads: fewer request threads, or a CPU of their own), or request threads that keep a connection after answering; answers the client had not read: the load generator (load_cpu_pct)");
        m.put(Cause.OTHER, "nothing the probe saw");
        return java.util.Collections.unmodifiableMap(m);
    }

    /**
     * The libraries (by group, as check.KnownLibraries names them) whose known defect bears on a cause: the pools on
     * waiting for a connection, the drivers on the database's time, the HTTP clients on a downstream's, any of them on
     * a monitor or a park (they pin or block there); on a full CPU, a library that spins (it burns the carrier).
     */
    static final Map<Cause, List<String>> LIBRARIES = libraries();

    private static Map<Cause, List<String>> libraries() {
        List<String> pools = List.of("com.zaxxer", "com.mchange"), drivers = List.of("org.postgresql", "com.mysql", "mysql", "org.mariadb.jdbc"),
                http = List.of("org.apache.httpcomponents", "org.apache.httpcomponents.core5", "org.apache.httpcomponents.client5");
        List<String> all = new ArrayList<>(pools);
        all.addAll(drivers);
        all.addAll(http);
        Map<Cause, List<String>> m = new EnumMap<>(Cause.class);
        m.put(Cause.POOL_WAIT, pools);
        m.put(Cause.DB, drivers);
        m.put(Cause.DOWNSTREAM, http);
        m.put(Cause.MONITOR, List.copyOf(all));
        m.put(Cause.PARK, List.copyOf(all));
        return java.util.Collections.unmodifiableMap(m);
    }

    /**
     * Whether a known library's defect bears on the cause (see {@link #LIBRARIES}), given the row's evidence: a monitor or
     * a park whose lock the dumps named bears on the library only when the lock is the library's (PetClinic's requests
     * blocked on the JDK's JarFile are no reason to swap its HikariCP).
     */
    static boolean concerns(Cause cause, vtlab.check.KnownLibraries.Entry e, String evidence) {
        // a spin bears on a full CPU or its queue when the dumps saw threads yielding, or the CPU's top frame is the
        // library's (PetClinic's virtual rows queued for a CPU busy in its web framework are no reason to swap its pool)
        if ((cause == Cause.CPU || cause == Cause.RUNQUEUE) && e.effect() == vtlab.check.KnownLibraries.Effect.SPINS) {
            return evidence.contains(vtlab.probe.TimeBreakdown.YIELDING) || evidence.contains(e.group() + ".");
        }
        if (!LIBRARIES.getOrDefault(cause, List.of()).contains(e.group())) return false;
        boolean lockNamed = (cause == Cause.MONITOR || cause == Cause.PARK) && evidence.contains(LOCK_NAMED);
        return !lockNamed || evidence.contains(e.group() + ".");
    }

    /** How the breakdown's evidence names a monitor's or a park's object ("lock java.util.jar.JarFile in ..."). */
    static final String LOCK_NAMED = "lock ";

    /**
     * Whether the row's largest cause is Spring Boot's nested-jar loader: a monitor of it (the evidence names it), or the
     * CPU (on it, or queued for it) with the loader the largest owner of the request threads' execution samples.
     */
    static boolean nestedJarLoaderIn(DataRow row, Cause cause) {
        // in a monitor's evidence: the cause has a fix Spring Boot documents, not a setting
        if (cause == Cause.MONITOR) return vtlab.data.RequestTime.evidence(row).contains(vtlab.probe.TimeBreakdown.NESTED_JAR_LOADER);
        if (cause != Cause.CPU && cause != Cause.RUNQUEUE) return false;
        // the owners as the breakdown reads them back, largest first
        return vtlab.data.RequestTime.ownerShares(row).keySet().stream().findFirst().orElse("").equals(vtlab.probe.TimeBreakdown.Owner.LAUNCHER.label);
    }

    /** A share of the CPU's samples from which work a request does not need is worth naming as the first thing to cut. */
    static final double OVERHEAD_PCT = 5;

    /**
     * Where the CPU is the wall, the work a request does not need that its samples show (time_cpu_owners), each with what
     * turns it down, "; first, work a request does not need: writing logs or the console 12% (--lever
     * cpu:--logging.level.root=WARN tries it on a Spring Boot jar: a property like its pool)"; "" when none reaches
     * {@link #OVERHEAD_PCT}.
     */
    static String overheadAdvice(Cause cause, DataRow row, boolean springBoot) {
        if (cause != Cause.CPU && cause != Cause.RUNQUEUE) return "";
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Double> o : vtlab.data.RequestTime.ownerShares(row).entrySet()) {
            String label = o.getKey();
            double pct = o.getValue();
            if (pct < OVERHEAD_PCT) continue;
            String how = switch (label) {
                case vtlab.data.RequestTime.WRITING_LOGS -> springBoot
                        ? "--lever cpu:--logging.level.root=WARN tries it on a Spring Boot jar, a property like its pool; and the service's own SQL or access logging off"
                        : "a higher log level, or the service's SQL or access logging off (--lever cpu:NAME=V tries its setting)";
                case vtlab.data.RequestTime.LOADING_CLASSES -> "a class or resource loaded on every request: cache it, or warm it up before the load";
                case vtlab.data.RequestTime.METRICS -> "fewer metrics per request, or a lower tracing sample rate";
                default -> null;
            };
            if (how != null) out.add(String.format(Locale.ROOT, "%s %.0f%% (%s)", label, pct, how));
        }
        return out.isEmpty() ? "" : "; first, work a request does not need: " + String.join(", ", out);
    }

    /** What would help for this cause and its evidence, the row's CPU not known to be full. */
    static String advice(Cause cause, String evidence) {
        return advice(cause, evidence, false);
    }

    /**
     * What would help for this cause and its evidence; cpuFull: the row was flagged app-cpu-bound, so virtual threads
     * queued for a carrier waited for the CPU itself, not for carriers something held (PetClinic's virtual forks: 99%
     * of request time in the carriers' queue at 100% of its one CPU were told "while the CPU had room").
     */
    static String advice(Cause cause, String evidence, boolean cpuFull) {
        if (cause == Cause.MONITOR && evidence != null && evidence.contains(vtlab.probe.TimeBreakdown.NESTED_JAR_LOADER)) {
            return "the monitors of Spring Boot's nested-jar class loader: run the jar extracted (java -Djarmode=tools -jar APP.jar extract,"
                    + " then java -jar the extracted APP.jar), as Spring Boot advises for production (the lab's launch lever, for a Spring Boot jar)";
        }
        // virtual threads that put themselves back in the queue: a library's spin on Thread.yield, the frame named in the evidence
        if (cause == Cause.RUNQUEUE && evidence != null && evidence.contains(vtlab.probe.TimeBreakdown.YIELDING)) {
            return "a spin on Thread.yield (the frame above): each yield puts the virtual thread back in its carrier's queue, so the requests queue"
                    + " behind the spinners; the library's release that parks instead (the known library fix below, the lab's library lever for a Spring Boot jar)";
        }
        // a queue for a carrier while the CPU had room is not a full CPU: carriers are held (pinned, or in native code)
        if (cause == Cause.RUNQUEUE && !cpuFull && evidence != null && !evidence.contains("CPU full") && evidence.contains("queued for")) {
            return "virtual threads queued for a carrier while the CPU had room: something holds the carriers (a pinned virtual thread, "
                    + "a blocking call in native code: the thread dumps' carriers show which), or more carriers (-D" + vtlab.plan.PlanContext.CARRIERS_PROPERTY + ")";
        }
        return ADVICE.getOrDefault(cause, "");
    }

    /**
     * A user's --lever: "[CAUSE:]NAME=V1,V2": NAME an environment variable, -DNAME a system property, -NAME or --NAME a
     * program argument (NAME=V); CAUSE one of the causes' keys (pool_wait, gc, ...), else it is tried whatever the
     * largest cause. Refused in one line when it does not parse, when NAME is a lab lever's (its rows would be taken for
     * that lever's and never run), when a -D name has a space or a quote (JAVA_TOOL_OPTIONS would split it into more JVM
     * options) and when a value of the list is empty.
     */
    static Lever user(String spec) throws UsageError {
        String s = spec.strip();
        Cause cause = null;
        int colon = s.indexOf(':'), eq = s.indexOf('=');
        if (colon > 0 && (eq < 0 || colon < eq)) {
            cause = Cause.of(s.substring(0, colon));
            if (cause == null || cause == Cause.OTHER) {
                throw new UsageError("--lever " + spec + ": '" + s.substring(0, colon) + "' is not a cause (one of "
                        + String.join(", ", java.util.Arrays.stream(Cause.values()).filter(c -> c != Cause.OTHER).map(c -> c.key).toList()) + ")");
            }
            s = s.substring(colon + 1);
            eq = s.indexOf('=');
        }
        if (eq <= 0 || eq == s.length() - 1) throw new UsageError("--lever takes [CAUSE:]NAME=VALUE,VALUE (e.g. DB_POOL_SIZE=20,40), not '" + spec + "'");
        String name = s.substring(0, eq);
        for (Lever l : ALL) {
            if (l.name().equals(name)) throw new UsageError("--lever " + spec + ": '" + name + "' is a lab lever's name (" + String.join(", ",
                    ALL.stream().map(Lever::name).toList()) + "): its rows would be taken for that lever's and never run (the next step turns the lab's own)");
        }
        List<String> values = java.util.Arrays.stream(s.substring(eq + 1).split(",", -1)).map(String::strip).toList();
        if (values.contains("")) throw new UsageError("--lever " + spec + ": an empty value in the list (VALUE,VALUE, each a row)");
        for (String v : values) {
            if (v.contains(";") || v.chars().anyMatch(Character::isWhitespace)) throw new UsageError("--lever " + spec + ": a value has no ';' or space");
        }
        Where where;
        if (name.startsWith("-D") && name.matches(".*[\\s'\"].*")) {
            throw new UsageError("--lever " + spec + ": a -D property's name has no space or quote (JAVA_TOOL_OPTIONS would split it into more JVM options)");
        }
        if (name.startsWith("-D") && name.length() > 2) where = Where.JVM;
        else if (name.matches("--?[A-Za-z0-9][A-Za-z0-9._-]*")) where = Where.ARG;
        else if (name.matches("[A-Za-z_][A-Za-z0-9_]*")) where = Where.ENV;
        else throw new UsageError("--lever " + spec + ": NAME is an environment variable, -Dproperty or --argument, not '" + name + "'");
        String words = (switch (where) {
            case ENV -> "the environment variable " + name;
            case JVM -> "the system property " + name.substring(2);
            case ARG -> "the program argument " + name;
            case LAUNCH, JDK, LIBRARY, SWITCH -> name;
        }) + " (--lever)";
        return new Lever(name, cause, words, where, name, List.of(), false, null, null, null, "", List.copyOf(values));
    }

    /** The lever a variant row's param names, among the lab's and the user's; null when none has that name. */
    static Lever named(String name, List<Lever> user) {
        for (Lever l : ALL) if (l.name().equals(name)) return l;
        for (Lever l : user) if (l.name().equals(name)) return l;
        return null;
    }

    /** The lever's name and value a row carries ("pool", "20"), or null for an A/B row. */
    static String[] of(DataRow row) {
        String p = row.param(PARAM);
        if (p == null) return null;
        int colon = p.indexOf(':');
        return colon < 0 ? new String[] {p, ""} : new String[] {p.substring(0, colon), p.substring(colon + 1)};
    }

    /** The value of NAME=VALUE among the arguments (the last given), as a whole number; null when absent or not one. */
    static Long argValue(List<String> args, String key) {
        Long out = null;
        for (String a : args) {
            if (!a.startsWith(key + "=")) continue;
            try {
                out = Long.valueOf(a.substring(key.length() + 1).strip());
            } catch (NumberFormatException e) {
                out = null;
            }
        }
        return out;
    }

    /** A JVM size (512m, 2g, 1048576k, bytes) in MB; null when it does not parse. */
    static Long megabytes(String size) {
        Matcher m = Pattern.compile("(\\d+)([kKmMgGtT]?)").matcher(size.strip());
        if (!m.matches()) return null;
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "k" -> n / 1024;
            case "m" -> n;
            case "g" -> n * 1024;
            case "t" -> n * 1024 * 1024;
            default -> n / (1024 * 1024);
        };
    }
}
