package vtlab.tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.core.LabHome;
import vtlab.core.UsageError;
import vtlab.stack.Stack;

class StackVariantsTest {
    @TempDir
    Path tmp;

    @Test
    void aSpecNamesItsJarAndTheMavenPropertiesItSets() throws Exception {
        StackVariants.Variant v = StackVariants.Variant.parse("spring-mvc", "pgjdbc:42.7.8+hikari:7.1.0");
        assertEquals(Map.of("pgjdbc", "42.7.8", "hikari", "7.1.0"), v.versions());
        assertEquals("pgjdbc:42.7.8+hikari:7.1.0", v.spec());
        assertEquals("spring-mvc-pgjdbc42.7.8-hikari7.1.0.jar", v.fileName());
        assertEquals(List.of("-Dpgjdbc.version=42.7.8", "-Dhikari.version=7.1.0"), v.mavenArgs());
        assertEquals("pgjdbc 42.7.8, hikari 7.1.0", v.words());
    }

    @Test
    void aSpecThatIsNotNameColonVersionIsRefusedInOneLine() {
        for (String bad : List.of("pgjdbc=42.7.8", "pgjdbc:", "pgjdbc:42.7.8+", "PGJDBC:42.7.8", "pgjdbc:42.7.8;rm -rf", "pgjdbc:../x",
                "pgjdbc:1+pgjdbc:2")) {
            UsageError e = assertThrows(UsageError.class, () -> StackVariants.Variant.parse("spring-mvc", bad), bad);
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
            assertTrue(e.getMessage().contains(bad), e.getMessage());
        }
    }

    @Test
    void thePomsOwnVersionsAreTheStacksNormalJarAndOthersAVariantUnderDotVtlab() throws Exception {
        Stack stack = Stack.load("spring-mvc");
        Map<String, String> defaults = StackVariants.pomDefaults(stack);
        assertEquals("42.7.13", defaults.get("pgjdbc"));
        assertEquals("7.0.2", defaults.get("hikari"));
        assertEquals(stack.jar(), StackVariants.forRow(stack, "pgjdbc:42.7.13+hikari:7.0.2").jar());
        assertEquals(stack.jar(), StackVariants.forRow(stack, (String) null).jar());
        Path variant = StackVariants.forRow(stack, "pgjdbc:42.7.8+hikari:7.0.2").jar();
        assertEquals(LabHome.get().resolve(".vtlab/jars/spring-mvc-pgjdbc42.7.8-hikari7.0.2.jar"), variant);
        assertEquals(stack.jar(), StackVariants.ensure(stack, StackVariants.Variant.parse("spring-mvc", "pgjdbc:42.7.13")),
                "the defaults are never built again");
        UsageError e = assertThrows(UsageError.class, () -> StackVariants.forRow(stack, "pgjbdc:42.7.8"));
        assertEquals("stack spring-mvc's pom.xml has no property pgjbdc.version to build with (it has spring-boot, pgjdbc, hikari)", e.getMessage());
    }

    @Test
    void theBuildGoesElsewhereWithTheStacksLabModulesAndTheVersionsAsProperties() throws Exception {
        Stack stack = Stack.load("spring-mvc");
        Path home = LabHome.get();
        List<String> cmd = StackVariants.command(home, stack, StackVariants.Variant.parse("spring-mvc", "pgjdbc:42.5.6+hikari:7.1.0"),
                tmp.resolve("out"), true);
        assertEquals(List.of(home.resolve("mvnw").toString(), "-B", "-q", "-o", "-f", home.resolve("pom.xml").toString(), "-pl",
                "stacks/spring-mvc", "-am", "package", "-DskipTests", "-Dvtlab.buildDirectory=" + tmp.resolve("out"),
                "-Dpgjdbc.version=42.5.6", "-Dhikari.version=7.1.0"), cmd);
        assertFalse(StackVariants.command(home, stack, StackVariants.Variant.parse("spring-mvc", "pgjdbc:42.5.6"), tmp, false).contains("-o"));
        // the stack's pom reads the property, so a variant never replaces target/vtlab-spring-mvc.jar
        assertTrue(Files.readString(stack.dir().resolve("pom.xml")).contains("<directory>${vtlab.buildDirectory}</directory>"));
        List<Path> sources = StackVariants.sources(stack);
        assertTrue(sources.contains(stack.dir().toAbsolutePath().normalize()), sources.toString());
        assertTrue(sources.contains(home.resolve("pom.xml")), sources.toString());
        assertTrue(sources.contains(home.resolve("stacks/pin-control")), "a dependency of the stack's own: " + sources);
        assertTrue(sources.contains(home.resolve("stacks/sut-kit")), "the kit every stack carries: " + sources);
        assertEquals(4, sources.size(), sources.toString());
    }

    @Test
    void aJarIsFreshOnlyWhenNewerThanEverySourceOutsideTarget() throws Exception {
        Path src = Files.createDirectories(tmp.resolve("stack/src/main/java"));
        Path java = Files.writeString(src.resolve("A.java"), "class A {}");
        Path target = Files.createDirectories(tmp.resolve("stack/target"));
        Path built = Files.writeString(target.resolve("old.jar"), "x");
        Path jar = Files.writeString(tmp.resolve("variant.jar"), "jar");
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        Files.setLastModifiedTime(java, FileTime.from(t));
        Files.setLastModifiedTime(jar, FileTime.from(t.plusSeconds(60)));
        Files.setLastModifiedTime(built, FileTime.from(t.plusSeconds(3600))); // a build's output is not a source
        List<Path> sources = List.of(tmp.resolve("stack"));
        assertTrue(StackVariants.fresh(jar, sources));
        Files.setLastModifiedTime(java, FileTime.from(t.plusSeconds(120)));
        assertFalse(StackVariants.fresh(jar, sources), "a source edited after the build");
        assertFalse(StackVariants.fresh(tmp.resolve("missing.jar"), sources));
    }

    @Test
    void aFailedBuildIsToldByMavensFirstError() throws Exception {
        // Maven 3.9.11's words for a version the repository does not have
        Path log = Files.writeString(tmp.resolve("b.log"), String.join("\n", "WARNING: A terminally deprecated method", "[INFO] Scanning",
                "[ERROR] Failed to execute goal on project vtlab-spring-mvc: Could not resolve dependencies for project dev.vtlab:vtlab-spring-mvc:jar:0.1.0",
                "[ERROR] dependency: org.postgresql:postgresql:jar:42.7.99 (runtime)",
                "[ERROR] \tCould not find artifact org.postgresql:postgresql:jar:42.7.99 in central (https://repo.maven.apache.org/maven2)",
                "[ERROR] -> [Help 1]", "[ERROR] ", "[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch."));
        assertEquals("Failed to execute goal on project vtlab-spring-mvc: Could not resolve dependencies for project dev.vtlab:vtlab-spring-mvc:jar:0.1.0;"
                + " dependency: org.postgresql:postgresql:jar:42.7.99 (runtime); Could not find artifact org.postgresql:postgresql:jar:42.7.99 in"
                + " central (https://repo.maven.apache.org/maven2)", StackVariants.reason(log));
        assertEquals("last words", StackVariants.reason(Files.writeString(tmp.resolve("c.log"), "first\nlast words\n")));
    }
}
