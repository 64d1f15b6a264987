package vtlab.check;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import vtlab.check.JarLibraries.Library;

/**
 * Libraries known to matter for virtual threads, each with the versions affected, what happens, the fix and the
 * public source it was checked against, read against what a service's jar holds ({@link JarLibraries}): measured
 * pinning says what pinned in one run, this says what a version is known to do under load it may not have met.
 * Only what a maintainer's issue, pull request or release note says goes in.
 */
public final class KnownLibraries {
    /** What a virtual thread meets in an affected version, and on which JDKs it matters. */
    public enum Effect {
        /** Blocks inside synchronized: the carrier is held for the wait; JEP 491 (JDK 24) lets it unmount there. */
        PINS("pins its carrier while it blocks in synchronized on JDK 21-23; harmless on JDK 24+ (JEP 491)"),
        /** Loops on Thread.yield(): no monitor is involved, so JEP 491 changes nothing. */
        SPINS("spins its carrier on any JDK (no monitor involved: JEP 491 does not help)");

        final String words;

        Effect(String words) {
            this.words = words;
        }

        /** Whether a virtual thread meets it on this JDK (0: not known, taken as yes). */
        public boolean on(int jdk) {
            return this == SPINS || jdk < 24;
        }
    }

    /**
     * Affected from {@code from} (inclusive; null: every earlier version) until {@code until} (exclusive; null: no
     * fixed version under these coordinates). fixedIn says where the fix is in words (the until version, or another
     * artifact's).
     */
    public record Entry(String group, String artifact, String from, String until, String fixedIn, Effect effect, String what,
                        String source) {
        public boolean affects(String version) {
            Version v = Version.of(version);
            return (from == null || !v.before(Version.of(from))) && (until == null || v.before(Version.of(until)));
        }

        static Entry of(String coordinates, String from, String until, Effect effect, String what, String source) {
            return of(coordinates, from, until, until, effect, what, source);
        }

        static Entry of(String coordinates, String from, String until, String fixedIn, Effect effect, String what, String source) {
            String[] ga = coordinates.split(":");
            return new Entry(ga[0], ga[1], from, until, fixedIn, effect, what, source);
        }

        /** The versions affected: "< 42.6.0", ">= 42.7.8, < 42.7.9", ">= 4.4.6". */
        String range() {
            if (from == null) return "< " + until;
            return until == null ? ">= " + from : ">= " + from + ", < " + until;
        }
    }

    /** The table: each entry's source is the maintainers' own; ranges read off the tagged releases' code where it was at hand. */
    public static final List<Entry> ALL = List.of(
            Entry.of("org.postgresql:postgresql", null, "42.6.0", Effect.PINS,
                    "the connection's query execution (`QueryExecutorImpl.execute`) is synchronized around socket reads;"
                            + " 42.6.0 replaced synchronized with ReentrantLock",
                    "https://github.com/pgjdbc/pgjdbc/pull/2635"),
            Entry.of("org.postgresql:postgresql", "42.7.8", "42.7.9", Effect.PINS,
                    "`LruCache.borrow`, synchronized since 42.7.8, parks on the connection's lock in"
                            + " `QueryExecutorBase.getStandardConformingStrings` when it builds a statement; 42.7.9 reads it without the lock",
                    "https://github.com/pgjdbc/pgjdbc/issues/3835"),
            Entry.of("com.zaxxer:HikariCP", "2.6.0", "7.1.0", Effect.SPINS,
                    "`ConcurrentBag.requite()` (a connection given back) loops on Thread.yield() while a borrower waits, which"
                            + " keeps a virtual thread on its carrier; 7.1.0 parks a virtual thread instead (PR #2402)",
                    "https://github.com/brettwooldridge/HikariCP/issues/2398"),
            Entry.of("com.mysql:mysql-connector-j", null, "9.0.0", Effect.PINS,
                    "the driver's synchronized blocks hold their monitor across I/O; 9.0.0 replaced them with ReentrantLock (Bug #110512)",
                    "https://dev.mysql.com/doc/relnotes/connector-j/en/news-9-0-0.html"),
            Entry.of("mysql:mysql-connector-java", null, null, "com.mysql:mysql-connector-j 9.0.0", Effect.PINS,
                    "the driver's synchronized blocks hold their monitor across I/O (the artifact was renamed"
                            + " com.mysql:mysql-connector-j before the fix)",
                    "https://dev.mysql.com/doc/relnotes/connector-j/en/news-9-0-0.html"),
            Entry.of("org.apache.httpcomponents:httpcore", "4.4.6", null, "no 4.x release; HttpCore 5.3 (HttpClient 5.4)", Effect.PINS,
                    "the pool's lease future (`AbstractConnPool`) waits for a free connection inside synchronized: with the pool"
                            + " exhausted every carrier can be held",
                    "https://issues.apache.org/jira/browse/HTTPCORE-746"),
            Entry.of("org.apache.httpcomponents.core5:httpcore5", null, "5.3", Effect.PINS,
                    "the pool's lease future (`BasicFuture.get`) waits for a free connection inside synchronized;"
                            + " 5.3 uses locks (PR #412)",
                    "https://issues.apache.org/jira/browse/HTTPCORE-746"),
            Entry.of("org.apache.httpcomponents.client5:httpclient5", null, "5.4", Effect.PINS,
                    "`PoolingHttpClientConnectionManager`'s lease is synchronized around the wait for a connection and its"
                            + " stale check (a socket read); 5.4 uses locks (PR #476)",
                    "https://issues.apache.org/jira/browse/HTTPCLIENT-2290"),
            Entry.of("org.mariadb.jdbc:mariadb-java-client", null, "3.3.0", Effect.PINS,
                    "the driver's synchronized blocks hold their monitor across socket I/O; 3.3.0 made it virtual-thread"
                            + " friendly (CONJ-1115: locks instead of synchronized)",
                    "https://mariadb.com/kb/en/mcj-330-cl"),
            Entry.of("com.mchange:c3p0", null, "0.10.1", Effect.PINS,
                    "a checked-out connection's customizer runs inside `synchronized (inUseLock)` (and NewProxyConnection"
                            + " synchronizes every call): blocking I/O there holds the carrier; 0.10.1 uses ReentrantLock",
                    "https://github.com/swaldman/c3p0/issues/174"));

    /**
     * A bug of the JDK itself that a virtual thread meets: affected from {@code from} (inclusive) until {@code until}
     * (exclusive), both of one feature release; other feature releases are not judged by it.
     *
     * @param fixedInSource where the fixed-in update was read, when not in the bug's own source
     */
    public record JdkIssue(String bug, String from, String until, String what, String source, String fixedInSource) {
        /** Whether a JDK of this exact version (java.version, e.g. 25.0.3) has the bug. */
        public boolean affects(String version) {
            Version v = Version.of(version);
            return feature(version) == feature(from) && !v.before(Version.of(from)) && v.before(Version.of(until));
        }

        /** Whether this issue speaks of that version's feature release at all. */
        public boolean judges(String version) {
            return feature(version) == feature(from);
        }

        static int feature(String version) {
            Object first = Version.of(version).items().isEmpty() ? null : Version.of(version).items().getFirst();
            return first instanceof Long l ? l.intValue() : -1;
        }

        /** One line: the bug, what it does, the fix and the sources. */
        public String line() {
            return bug + ": " + what + "; fixed in " + until + " (" + source + (fixedInSource == null ? "" : "; fixed-in update: " + fixedInSource) + ")";
        }
    }

    /** The JDK's own known issues; each bug's source is OpenJDK's (its bug, its regression test or its update repository's change). */
    public static final List<JdkIssue> JDK = List.of(
            new JdkIssue("JDK-8369227", "25", "25.0.3",
                    "a virtual thread that parks right after a timed park, unparked as its timeout expires, can be left"
                            + " PARKED for good (a request that never ends); a regression of JDK 25's scheduler timer change (JDK-8351927)",
                    "https://bugs.openjdk.org/browse/JDK-8369227, regression test"
                            + " https://github.com/openjdk/jdk/blob/master/test/jdk/java/lang/Thread/virtual/stress/ParkAfterTimedPark.java",
                    "reported, not read at OpenJDK: https://github.com/hardwood-hq/hardwood/issues/1230"),
            new JdkIssue("JDK-8373120", "25", "25.0.4",
                    "a virtual thread blocked on a monitor can be left BLOCKED after the monitor is released (a request"
                            + " that never ends)",
                    "https://bugs.openjdk.org/browse/JDK-8373120, https://github.com/openjdk/jdk26u/pull/111",
                    "jdk25u-dev commit 40506bd177c01335c624039650d093e85f7628b0, \"ahead of upstream 25.0.4\":"
                            + " https://github.com/corretto/corretto-25/pull/53"));

    /** The JDK issues that speak of this JDK's feature release, affecting it or not. */
    public static List<JdkIssue> jdkIssues(String version) {
        return JDK.stream().filter(i -> i.judges(version)).toList();
    }

    /**
     * One line on a JDK by its exact version: the known issues it has, or that it has none of those the lab knows for
     * its feature release; null when the lab knows none for that release.
     */
    public static String jdkLine(String version) {
        List<JdkIssue> known = jdkIssues(version);
        if (known.isEmpty()) return null;
        List<JdkIssue> affecting = known.stream().filter(i -> i.affects(version)).toList();
        if (affecting.isEmpty()) {
            return version + ": not affected by the known JDK issues of its release ("
                    + known.stream().map(i -> i.bug() + ", fixed in " + i.until()).collect(Collectors.joining("; ")) + ")";
        }
        return version + ": AFFECTED — " + affecting.stream().map(JdkIssue::line).collect(Collectors.joining("; also "));
    }

    /**
     * One library of the jar that the table knows, with the entries its version falls in (none: not affected).
     *
     * @param jdks the JDK majors the run used (empty: not known): a pin that JEP 491 removed is said not to apply there
     */
    public record Finding(Library library, List<Entry> known, List<Entry> affecting, List<Integer> jdks) {
        /** The library's group, or the table's when the jar did not say it (matched by artifact and module). */
        public String group() {
            return library.group() != null ? library.group() : known.getFirst().group();
        }

        public boolean affected() {
            return !affecting.isEmpty();
        }

        /** One line: the library, its status, why, the fix and the source. */
        public String line() {
            String lib = library.group() != null ? library.coordinates() : group() + ":" + library.artifact() + ":" + library.version()
                    + " (" + library.where() + " has no pom.properties: known by its file name and module " + library.module() + ")";
            if (!affected()) {
                return lib + ": not affected (" + known.stream().map(e -> "affected " + e.range() + ", fixed in " + e.fixedIn()
                        + ": " + e.source()).collect(Collectors.joining("; ")) + ")";
            }
            return lib + ": AFFECTED — " + affecting.stream().map(this::why).collect(Collectors.joining("; also "));
        }

        private String why(Entry e) {
            List<String> met = jdks.stream().filter(e.effect()::on).map(String::valueOf).toList();
            String here = jdks.isEmpty() ? "" : met.isEmpty()
                    ? ", not met on this run's JDK " + jdks.stream().map(String::valueOf).collect(Collectors.joining(", "))
                    : ", met on this run's JDK " + String.join(", ", met);
            return e.what() + "; " + e.effect().words + here + "; fixed in " + (e.fixedIn() == null ? "no release yet" : e.fixedIn())
                    + " (" + e.source() + ")";
        }
    }

    private KnownLibraries() {}

    /** The table's verdict on each library it knows, in the jar's order; libraries it does not know are left out. */
    public static List<Finding> check(List<Library> libraries, List<Integer> jdks) {
        return check(libraries, jdks, ALL);
    }

    /**
     * Whether the library is the group's: by its pom.properties, or (without one) by a module name in the group's
     * namespace, org.postgresql.jdbc for org.postgresql; a file name alone is not enough (org.testcontainers ships a
     * postgresql-1.19.0.jar too).
     */
    static boolean owns(String group, Library l) {
        if (l.group() != null) return l.group().equals(group);
        return l.module() != null && (l.module().equals(group) || l.module().startsWith(group + "."));
    }

    static List<Finding> check(List<Library> libraries, List<Integer> jdks, List<Entry> table) {
        List<Finding> out = new ArrayList<>();
        for (Library l : libraries) {
            List<Entry> known = table.stream().filter(e -> e.artifact().equals(l.artifact()) && owns(e.group(), l)).toList();
            if (known.isEmpty()) continue;
            out.add(new Finding(l, known, known.stream().filter(e -> e.affects(l.version())).toList(), List.copyOf(jdks)));
        }
        return out;
    }
}
