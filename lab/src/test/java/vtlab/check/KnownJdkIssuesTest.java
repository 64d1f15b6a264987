package vtlab.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import vtlab.check.JarLibraries.Library;

/** The JDK itself as a known cause, read against a JDK's exact version; and the libraries added with it. */
class KnownJdkIssuesTest {
    static List<String> bugs(String version) {
        return KnownLibraries.JDK.stream().filter(i -> i.affects(version)).map(KnownLibraries.JdkIssue::bug).toList();
    }

    @Test
    void eachUpdateOf25HasTheIssuesNotYetFixedInIt() {
        assertEquals(List.of("JDK-8369227", "JDK-8373120"), bugs("25"), "25 GA (java.version 25)");
        assertEquals(List.of("JDK-8369227", "JDK-8373120"), bugs("25.0.2"));
        assertEquals(List.of("JDK-8373120"), bugs("25.0.3"), "8369227 is fixed in 25.0.3");
        assertEquals(List.of(), bugs("25.0.4"));
        assertEquals(List.of(), bugs("25.0.10"), "10 after 4, not before");
    }

    @Test
    void anotherReleaseIsNotJudgedByIssuesOf25() {
        assertEquals(List.of(), bugs("21.0.4"));
        assertEquals(List.of(), bugs("26"), "26 is not said to be affected or not: its own entries would");
        assertEquals(List.of(), KnownLibraries.jdkIssues("26.0.1"));
        assertNull(KnownLibraries.jdkLine("21.0.9"), "no known issue for JDK 21's release: nothing to say");
    }

    @Test
    void theLineNamesTheExactUpdateTheBugsAndTheirFixes() {
        String affected = KnownLibraries.jdkLine("25.0.3");
        assertTrue(affected.startsWith("25.0.3: AFFECTED — JDK-8373120: "), affected);
        assertTrue(affected.contains("BLOCKED") && affected.contains("fixed in 25.0.4") && affected.contains("https://bugs.openjdk.org/browse/JDK-8373120"), affected);
        assertFalse(affected.contains("JDK-8369227"), affected);
        String fixed = KnownLibraries.jdkLine("25.0.4");
        assertEquals("25.0.4: not affected by the known JDK issues of its release (JDK-8369227, fixed in 25.0.3; JDK-8373120, fixed in 25.0.4)", fixed);
    }

    static KnownLibraries.Finding finding(String group, String artifact, String version, int jdk) {
        return KnownLibraries.check(List.of(new Library(group, artifact, version, "BOOT-INF/lib/x.jar", null)), List.of(jdk)).getFirst();
    }

    @Test
    void mariadbBefore330AndC3p0Before0101PinOnJdk21Only() {
        assertTrue(finding("org.mariadb.jdbc", "mariadb-java-client", "3.2.0", 21).line().contains("AFFECTED"));
        assertTrue(finding("org.mariadb.jdbc", "mariadb-java-client", "3.2.0", 21).line().contains("met on this run's JDK 21"));
        assertFalse(finding("org.mariadb.jdbc", "mariadb-java-client", "3.3.0", 21).affected());
        assertTrue(finding("org.mariadb.jdbc", "mariadb-java-client", "3.2.0", 25).line().contains("not met on this run's JDK 25"));
        assertTrue(finding("com.mchange", "c3p0", "0.10.0", 21).affected());
        assertFalse(finding("com.mchange", "c3p0", "0.10.1", 21).affected());
    }
}
