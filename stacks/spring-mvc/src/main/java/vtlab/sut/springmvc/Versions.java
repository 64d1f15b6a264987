package vtlab.sut.springmvc;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URL;
import java.util.Properties;

/**
 * The versions of the libraries actually loaded, read from their classes (not from the build): the pom lets a
 * build choose them (pgjdbc.version, hikari.version), so runtime-info must say which one a row ran.
 */
final class Versions {
    static final String UNKNOWN = "unknown";

    private Versions() {}

    /**
     * The PostgreSQL JDBC driver's version: its DriverInfo.DRIVER_VERSION, read by reflection from the loaded class
     * (a compile-time constant would be inlined at build time, and the driver is a runtime dependency only).
     */
    static String pgjdbc() {
        try {
            return (String) Class.forName("org.postgresql.util.DriverInfo").getField("DRIVER_VERSION").get(null);
        } catch (ReflectiveOperationException | LinkageError e) {
            return UNKNOWN;
        }
    }

    /** HikariCP's version: its manifest has no Implementation-Version, so the pom.properties its jar carries. */
    static String hikari() {
        return mavenVersion(com.zaxxer.hikari.HikariDataSource.class, "com.zaxxer", "HikariCP");
    }

    /**
     * The version in META-INF/maven/GROUP/ARTIFACT/pom.properties of the jar that loaded the class (resolved against
     * the class file's own URL, so another jar's copy cannot answer), else the package's Implementation-Version.
     */
    static String mavenVersion(Class<?> c, String group, String artifact) {
        URL self = c.getResource(c.getSimpleName() + ".class");
        if (self != null && self.getProtocol().equals("jar")) {
            // jar:file:/x.jar!/a/B.class, or in the fat jar jar:nested:/app.jar/!BOOT-INF/lib/x.jar!/a/B.class
            String jarRoot = self.toString().substring(0, self.toString().lastIndexOf("!/") + 2);
            try (InputStream in = URI.create(jarRoot + "META-INF/maven/" + group + "/" + artifact + "/pom.properties").toURL().openStream()) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version");
                if (v != null) return v;
            } catch (IOException | IllegalArgumentException e) {
                // no pom.properties in that jar: fall back to the manifest
            }
        }
        String v = c.getPackage() == null ? null : c.getPackage().getImplementationVersion();
        return v == null ? UNKNOWN : v;
    }
}
