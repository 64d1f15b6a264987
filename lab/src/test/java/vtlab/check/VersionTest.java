package vtlab.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Maven's order of versions, where string order and naive parsing go wrong. */
class VersionTest {
    static int cmp(String a, String b) {
        return Integer.signum(Version.of(a).compareTo(Version.of(b)));
    }

    @Test
    void numbersCompareAsNumbersNotAsText() {
        assertEquals(1, cmp("42.7.10", "42.7.9"));
        assertEquals(-1, cmp("42.7.9", "42.7.10"));
        assertEquals(1, cmp("2.10.0", "2.6.0"));
        assertEquals(-1, cmp("7.0.2", "7.1.0"));
        assertEquals(1, cmp("23.26.1.0.0", "23.3.0.23.09"));
    }

    @Test
    void missingNumbersAreZero() {
        assertEquals(0, cmp("9.0", "9.0.0"));
        assertEquals(0, cmp("5.3", "5.3.0"));
        assertEquals(-1, cmp("5.3", "5.3.1"));
        assertEquals(1, cmp("9.0.0.1", "9.0"));
    }

    @Test
    void aPreReleaseComesBeforeItsReleaseAndOtherQualifiersAfter() {
        assertEquals(-1, cmp("42.7.9-rc1", "42.7.9"));
        assertEquals(-1, cmp("1.0-SNAPSHOT", "1.0"));
        assertEquals(-1, cmp("5.4-alpha1", "5.4-beta1"));
        assertEquals(-1, cmp("5.4-beta1", "5.4-RC1"));
        assertEquals(-1, cmp("5.4-rc1", "5.4-rc2"));
        assertEquals(1, cmp("1.2.3-jre", "1.2.3"));
        assertEquals(-1, cmp("1.2.3-jre", "1.2.4"));
        assertEquals(-1, cmp("33.0.0-android", "33.0.0-jre"), "unknown qualifiers: by name");
        assertEquals(0, cmp("6.4.4.Final", "6.4.4"));
        assertEquals(-1, cmp("1.0-rc1", "1.0.1"));
    }

    @Test
    void sortsAsMavenWould() {
        List<String> sorted = List.of("42.5.4", "42.6.0-rc1", "42.6.0", "42.7.2", "42.7.8", "42.7.9", "42.7.10");
        List<String> shuffled = new ArrayList<>(sorted);
        Collections.reverse(shuffled);
        assertEquals(sorted, shuffled.stream().map(Version::of).sorted().map(Version::toString).toList());
    }

    @Test
    void rangesOfTheTable() {
        KnownLibraries.Entry regression = KnownLibraries.ALL.stream().filter(e -> "42.7.8".equals(e.from())).findFirst().orElseThrow();
        assertTrue(regression.affects("42.7.8"));
        assertFalse(regression.affects("42.7.9"));
        assertFalse(regression.affects("42.7.10"), "42.7.10 is after 42.7.9, not between 42.7.1 and 42.7.8");
        assertFalse(regression.affects("42.7.7"));
        KnownLibraries.Entry old = KnownLibraries.ALL.stream().filter(e -> e.artifact().equals("postgresql") && e.from() == null).findFirst().orElseThrow();
        assertTrue(old.affects("42.5.6"), "a 42.5.x released after 42.6.0 still has the synchronized executor");
        assertTrue(old.affects("42.6.0-rc1"));
        assertFalse(old.affects("42.6.0"));
    }
}
