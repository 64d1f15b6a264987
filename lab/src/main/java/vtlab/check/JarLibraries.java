package vtlab.check;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.jar.Attributes;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;

/**
 * The libraries inside a jar, as group:artifact:version, read without running it: a Spring Boot fat jar's
 * BOOT-INF/lib/*.jar (and a war's WEB-INF/lib), each by the META-INF/maven/&#42;/&#42;/pom.properties Maven writes into
 * it, or, for a jar built without one (Gradle's: pgjdbc's among them), by its file name (Spring Boot names them
 * artifactId-version.jar) and its module name; and the jar's own pom.properties entries, which a shaded jar carries
 * for every library merged into it (a plain jar: its own only). What a jar holds is what runs, whatever the build said.
 */
public final class JarLibraries {
    /**
     * @param group  null when only the file name was there to go by
     * @param where  the entry it was read from: "BOOT-INF/lib/x.jar" or "META-INF/maven/g/a/pom.properties" of the jar
     * @param module without a group: the nested jar's Automatic-Module-Name (else Bundle-SymbolicName), which names
     *               its owner (org.postgresql.jdbc); null when it has neither, or when the group is known
     */
    public record Library(String group, String artifact, String version, String where, String module) {
        public Library(String group, String artifact, String version, String where) {
            this(group, artifact, version, where, null);
        }

        public String coordinates() {
            return (group == null ? "?" : group) + ":" + artifact + ":" + version;
        }
    }

    private static final Pattern POM = Pattern.compile("META-INF/maven/[^/]+/[^/]+/pom\\.properties");
    private static final Pattern NESTED = Pattern.compile("(BOOT-INF|WEB-INF)/(lib|lib-provided)/[^/]+\\.jar");
    /** name-1.2.3.jar: the version starts at the first '-' followed by a digit. */
    private static final Pattern FILE_NAME = Pattern.compile("(.+?)-(\\d[^/]*)\\.jar");

    private JarLibraries() {}

    /** Every library found, in the jar's order, each coordinate once (the first place it was seen). */
    public static List<Library> of(Path jar) throws IOException {
        Map<String, Library> out = new LinkedHashMap<>();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            Enumeration<? extends ZipEntry> entries = zip.entries();
            while (entries.hasMoreElements()) {
                ZipEntry e = entries.nextElement();
                if (POM.matcher(e.getName()).matches()) {
                    try (InputStream in = zip.getInputStream(e)) {
                        add(out, pom(in, e.getName()));
                    }
                } else if (NESTED.matcher(e.getName()).matches()) {
                    try (InputStream in = zip.getInputStream(e)) {
                        nested(in, e.getName()).forEach(l -> add(out, l));
                    }
                }
            }
        }
        return List.copyOf(out.values());
    }

    /**
     * A nested jar's own pom.properties (a shaded one may hold several); when it has none, its file name with its
     * module name.
     */
    static List<Library> nested(InputStream in, String name) throws IOException {
        List<Library> found = new ArrayList<>();
        String module = null;
        try (ZipInputStream zin = new ZipInputStream(in)) {
            ZipEntry e;
            while ((e = zin.getNextEntry()) != null) {
                if (POM.matcher(e.getName()).matches()) {
                    Library l = pom(zin, name);
                    if (l != null) found.add(l);
                } else if (e.getName().equals("META-INF/MANIFEST.MF")) {
                    module = module(new Manifest(zin));
                }
            }
        } catch (IOException | IllegalArgumentException ex) {
            // a nested jar that does not read as a zip: its name is all there is to go by
        }
        if (found.isEmpty()) {
            Matcher m = FILE_NAME.matcher(name.substring(name.lastIndexOf('/') + 1));
            if (m.matches()) found.add(new Library(null, m.group(1), m.group(2), name, module));
        }
        return found;
    }

    /** Automatic-Module-Name, else Bundle-SymbolicName without its directives; null when neither is there. */
    static String module(Manifest m) {
        Attributes a = m.getMainAttributes();
        String name = a.getValue("Automatic-Module-Name");
        if (name == null || name.isBlank()) name = a.getValue("Bundle-SymbolicName");
        if (name == null || name.isBlank()) return null;
        int semi = name.indexOf(';');
        return (semi >= 0 ? name.substring(0, semi) : name).strip();
    }

    /** groupId, artifactId and version of a pom.properties; null when one is missing. Does not close the stream. */
    static Library pom(InputStream in, String where) throws IOException {
        Properties p = new Properties();
        p.load(in); // leaves the stream open: a ZipInputStream goes on to its next entry
        String g = p.getProperty("groupId"), a = p.getProperty("artifactId"), v = p.getProperty("version");
        if (g == null || a == null || v == null || g.isBlank() || a.isBlank() || v.isBlank()) return null;
        return new Library(g.strip(), a.strip(), v.strip(), where);
    }

    private static void add(Map<String, Library> out, Library l) {
        if (l != null) out.putIfAbsent(l.coordinates(), l);
    }
}
