package vtlab.experiment.ab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.check.JarLibraries.Library;
import vtlab.data.DataRow;
import vtlab.data.RequestTime.Cause;
import vtlab.probe.TimeBreakdown;
import vtlab.tier.MavenArtifact;

/**
 * The next step's library lever (a known defect's fixed release in the shipped jar's place) and its SQL-logging switch:
 * when each fits, what it tries, and how the fixed jar takes the old one's place in an extracted Spring Boot jar.
 */
class LibraryLeverTest {
    static final Library HIKARI_702 = new Library("com.zaxxer", "HikariCP", "7.0.2", "BOOT-INF/lib/HikariCP-7.0.2.jar");
    static final Library HIKARI_710 = new Library("com.zaxxer", "HikariCP", "7.1.0", "BOOT-INF/lib/HikariCP-7.1.0.jar");
    static final Library HIBERNATE = new Library("org.hibernate.orm", "hibernate-core", "7.1.4.Final", "BOOT-INF/lib/hibernate-core-7.1.4.Final.jar");

    static Levers.Known known(boolean springBoot, List<Library> libs, Map<String, String> row) {
        return new NextStep.Facts(true, springBoot, null, List.of(), Map.of(), List.of(), 24_000, libs).known(List.of(), List.of(), DataRow.of(row));
    }

    static final Map<String, String> JDK25 = Map.of("jdk", "25");

    @Test
    void hikariBeforeItsFixSpinsOnEveryJdkAndItsFixedReleaseIsTheValueTried() {
        Levers.Known k = known(true, List.of(HIBERNATE, HIKARI_702), JDK25);
        // a spin is met on JDK 24+ too (no monitor: JEP 491 changes nothing), on the run queue it causes and on the pool's waits
        Levers.Known yielding = known(true, List.of(HIBERNATE, HIKARI_702), Map.of("jdk", "25", "time_top_evidence",
                TimeBreakdown.YIELDING + " com.zaxxer.hikari.util.ConcurrentBag.requite [120 of 400 virtual threads in 4 dumps]"));
        assertTrue(Levers.LIBRARY.fits(yielding, "virtual", Cause.RUNQUEUE));
        assertFalse(Levers.LIBRARY.fits(k, "virtual", Cause.RUNQUEUE), "a run queue with no thread seen yielding: not the spin's");
        assertTrue(Levers.LIBRARY.fits(k, "virtual", Cause.POOL_WAIT));
        assertTrue(Levers.LIBRARY.fits(known(true, List.of(HIKARI_702), Map.of("jdk", "25", "time_top_evidence",
                "most of it in the JDBC driver, pool or ORM; top frame com.zaxxer.hikari.util.ConcurrentBag.requite (40 samples)")), "platform", Cause.CPU));
        assertFalse(Levers.LIBRARY.fits(k, "platform", Cause.CPU), "a full CPU whose top frame is not the library's");
        assertFalse(Levers.LIBRARY.fits(k, "virtual", Cause.SLEEP), "a sleep is not the pool's");
        assertEquals(List.of("com.zaxxer:HikariCP:7.1.0"), Levers.LIBRARY.values(k));
        assertEquals("HikariCP 7.1.0", Levers.LIBRARY.label("com.zaxxer:HikariCP:7.1.0"));
        // the fixed release shipped, or a service that is not a Spring Boot jar: nothing to swap
        assertFalse(Levers.LIBRARY.fits(known(true, List.of(HIKARI_710), JDK25), "virtual", Cause.POOL_WAIT));
        assertFalse(Levers.LIBRARY.fits(known(false, List.of(HIKARI_702), JDK25), "virtual", Cause.POOL_WAIT));
        assertFalse(Levers.LIBRARY.fits(known(true, List.of(), JDK25), "virtual", Cause.POOL_WAIT));
    }

    @Test
    void aMonitorWhoseLockTheDumpsNameIsTheLibrarysOnlyWhenTheLockIsInIt() {
        // PetClinic's virtual rows: requests blocked on the JDK's JarFile, a jar with HikariCP 7.0.2 beside it
        Map<String, String> jarFile = Map.of("jdk", "25", "time_top_evidence",
                "lock java.util.jar.JarFile in org.springframework.core.io.ClassPathResource.resolveURL [283 of 845 virtual threads in 4 dumps]");
        assertFalse(Levers.LIBRARY.fits(known(true, List.of(HIKARI_702), jarFile), "virtual", Cause.MONITOR), "the lock is the JDK's, not HikariCP's");
        Map<String, String> pool = Map.of("jdk", "25", "time_top_evidence",
                "lock com.zaxxer.hikari.util.ConcurrentBag in com.zaxxer.hikari.pool.HikariPool.getConnection [90 of 400 virtual threads in 4 dumps]");
        assertTrue(Levers.LIBRARY.fits(known(true, List.of(HIKARI_702), pool), "virtual", Cause.MONITOR), "the pool's own lock");
        assertTrue(Levers.LIBRARY.fits(known(true, List.of(HIKARI_702), JDK25), "virtual", Cause.MONITOR), "no lock named: it may be the library's");
    }

    @Test
    void theSqlLogSwitchFitsAHibernateJarWritingTheConsoleOnTheRequestsPath() {
        Map<String, String> logging = Map.of("jdk", "25", "time_cpu_owners", "the web framework 40%; writing logs or the console 22%; other libraries 38%");
        assertTrue(Levers.SQL_LOG.fits(known(true, List.of(HIBERNATE, HIKARI_702), logging), "virtual", Cause.RUNQUEUE));
        assertTrue(Levers.SQL_LOG.fits(known(true, List.of(HIBERNATE), Map.of("time_top_evidence", TimeBreakdown.CONSOLE + " org.hibernate.X.log [17 of 980 ...]")),
                "virtual", Cause.PARK), "requests waiting on the console's lock");
        assertFalse(Levers.SQL_LOG.fits(known(true, List.of(HIKARI_702), logging), "virtual", Cause.RUNQUEUE), "no Hibernate: no SQL logger to turn off");
        assertFalse(Levers.SQL_LOG.fits(known(true, List.of(HIBERNATE), Map.of("time_cpu_owners", "writing logs or the console 3%")), "virtual", Cause.CPU),
                "under 5% of the samples: not worth a lever");
        assertEquals(List.of(Levers.SWITCH_OFF), Levers.SQL_LOG.values(known(true, List.of(HIBERNATE), logging)));
        // the switch answers a finding beside the bottleneck: the next step tries it after every mode's levers for its
        // bottleneck (a known fix of the pool that spins), never before them
        assertTrue(Levers.SQL_LOG.aside());
        assertEquals(List.of(Levers.SQL_LOG), Levers.ALL.stream().filter(Levers.Lever::aside).toList());
        assertEquals("sql-log off", Levers.SQL_LOG.label("off"));
    }

    @Test
    void theFixedJarTakesTheOldOnesFileNameInTheExtractedLibFolder(@TempDir Path dir) throws Exception {
        Path lib = Files.createDirectories(dir.resolve("lib"));
        Files.writeString(lib.resolve("HikariCP-7.0.2.jar"), "old");
        Files.writeString(lib.resolve("HikariCP-java7-2.4.13.jar"), "another artifact");
        // the fixed release as Maven fetched it: .vtlab/libs (here a stand-in folder the fetch finds it in)
        MavenArtifact fixed = new MavenArtifact("com.zaxxer", "HikariCP", "7.1.0");
        Path fetched = Files.createDirectories(MavenArtifact.dir()).resolve(fixed.fileName());
        boolean had = Files.exists(fetched);
        if (!had) Files.writeString(fetched, "new");
        try {
            String said = Extracted.swapIn(lib, fixed);
            assertEquals(Files.readAllBytes(fetched).length, Files.size(lib.resolve("HikariCP-7.0.2.jar")));
            assertEquals("another artifact", Files.readString(lib.resolve("HikariCP-java7-2.4.13.jar")), "only the artifact's own jar");
            assertTrue(said.startsWith("HikariCP 7.1.0 in the place of HikariCP-7.0.2.jar"), said);
        } finally {
            if (!had) Files.delete(fetched);
        }
        Path empty = Files.createDirectories(dir.resolve("empty"));
        IOException none = assertThrows(IOException.class, () -> Extracted.swapIn(empty, fixed));
        assertTrue(none.getMessage().startsWith("no HikariCP jar in the extracted"), none.getMessage());
    }

    @Test
    void coordinatesAreGroupArtifactVersion() {
        assertEquals("com.zaxxer:HikariCP:7.1.0", MavenArtifact.parse("com.zaxxer:HikariCP:7.1.0").coordinates());
        assertThrows(IllegalArgumentException.class, () -> MavenArtifact.parse("HikariCP:7.1.0"));
        assertThrows(IllegalArgumentException.class, () -> MavenArtifact.parse("com.zaxxer:Hikari CP:7.1.0"));
        assertThrows(IllegalArgumentException.class, () -> MavenArtifact.parse("com.zaxxer:HikariCP:../7"));
    }
}
