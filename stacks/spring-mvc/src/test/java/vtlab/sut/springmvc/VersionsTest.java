package vtlab.sut.springmvc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import org.junit.jupiter.api.Test;

/** runtime-info's library versions are the ones the build chose (surefire passes pgjdbc.version and hikari.version). */
class VersionsTest {
    @Test
    void theLoadedDriverAndPoolAreTheBuildsChoice() {
        String pgjdbc = System.getProperty("vtlab.expect.pgjdbc"), hikari = System.getProperty("vtlab.expect.hikari");
        assertNotNull(pgjdbc, "run by Maven, which passes the chosen versions");
        assertEquals(pgjdbc, Versions.pgjdbc());
        assertEquals(hikari, Versions.hikari());
    }

    @Test
    void aClassOutsideAnyJarHasNoVersion() {
        assertEquals(Versions.UNKNOWN, Versions.mavenVersion(VersionsTest.class, "com.zaxxer", "HikariCP"));
    }
}
