package vtlab.tier;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import vtlab.core.LabHome;
import vtlab.core.UsageError;
import vtlab.stack.Stack;
import vtlab.proc.Children;
import vtlab.tier.tool.Jdk;

/**
 * A lab stack built with library versions other than its pom's defaults, so one run can put several JDBC drivers
 * and pools under the same load. A row asks for one by its build spec ("pgjdbc:42.7.8+hikari:7.1.0": each NAME:VERSION
 * sets the pom property NAME.version); each combination is built once, with the committed Maven wrapper, into
 * .vtlab/jars/STACK-pgjdbc42.7.8-hikari7.1.0.jar and reused while it is newer than the stack's sources. The
 * combination of the pom's own defaults is the stack's normal jar. Builds run before the first row (RunCommand),
 * never inside one; the runtime-info of every row still says which versions were loaded, and verification compares.
 */
public final class StackVariants {
    /** Property names as the spec gives them (pgjdbc, hikari) and versions safe for a file name and a -D argument. */
    static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]*");
    static final Pattern VALUE = Pattern.compile("[0-9A-Za-z][0-9A-Za-z._-]*");
    /** The pom property a spec name sets. */
    static final String SUFFIX = ".version";
    private static final Duration BUILD_MAX = Duration.ofMinutes(15);

    private StackVariants() {}

    /**
     * One combination of versions for one stack.
     *
     * @param versions by spec name, in the spec's order (the order of the jar's name)
     */
    public record Variant(String stack, Map<String, String> versions) {
        public Variant {
            versions = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(versions));
        }

        /** "pgjdbc:42.7.8+hikari:7.1.0", refused in one line when it is not NAME:VERSION joined by '+'. */
        public static Variant parse(String stack, String spec) throws UsageError {
            Map<String, String> v = new LinkedHashMap<>();
            for (String part : spec.split("\\+", -1)) {
                int colon = part.indexOf(':');
                String name = colon < 0 ? part : part.substring(0, colon), value = colon < 0 ? "" : part.substring(colon + 1);
                if (!NAME.matcher(name).matches() || !VALUE.matcher(value).matches()) {
                    throw new UsageError("build '" + spec + "' of stack " + stack + ": '" + part + "' is not NAME:VERSION (e.g. pgjdbc:42.7.8)");
                }
                if (v.put(name, value) != null) throw new UsageError("build '" + spec + "' of stack " + stack + " sets " + name + " twice");
            }
            return new Variant(stack, v);
        }

        public String spec() {
            return versions.entrySet().stream().map(e -> e.getKey() + ":" + e.getValue()).collect(Collectors.joining("+"));
        }

        /** spring-mvc-pgjdbc42.7.8-hikari7.1.0.jar */
        public String fileName() {
            return stack + versions.entrySet().stream().map(e -> "-" + e.getKey() + e.getValue()).collect(Collectors.joining()) + ".jar";
        }

        /** -Dpgjdbc.version=42.7.8 ... */
        List<String> mavenArgs() {
            return versions.entrySet().stream().map(e -> "-D" + e.getKey() + SUFFIX + "=" + e.getValue()).toList();
        }

        /** "pgjdbc 42.7.8, hikari 7.1.0" */
        public String words() {
            return versions.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
        }
    }

    /** Where the variants are kept. */
    public static Path dir() {
        return LabHome.get().resolve(".vtlab/jars");
    }

    /** The stack a row runs: its own jar, or (with a build spec) the variant's; nothing is built here. */
    public static Stack forRow(Stack stack, String spec) throws UsageError {
        return forRow(stack, spec == null ? null : Variant.parse(stack.name(), spec));
    }

    /** The stack a row runs: its own jar, or (with a variant: the row's build) the variant's; nothing is built here. */
    public static Stack forRow(Stack stack, Variant v) throws UsageError {
        return v == null ? stack : stack.withJar(jar(stack, v));
    }

    /** The jar a variant runs from: the stack's own for the pom's defaults, else its file under {@link #dir()}. */
    public static Path jar(Stack stack, Variant v) throws UsageError {
        return isDefault(stack, v) ? stack.jar() : dir().resolve(v.fileName());
    }

    /** Whether every version is the pom's default: the stack's normal build. */
    public static boolean isDefault(Stack stack, Variant v) throws UsageError {
        Map<String, String> defaults = pomDefaults(stack);
        for (var e : v.versions().entrySet()) {
            String d = defaults.get(e.getKey());
            if (d == null) {
                throw new UsageError("stack " + stack.name() + "'s pom.xml has no property " + e.getKey() + SUFFIX + " to build with"
                        + (defaults.isEmpty() ? "" : " (it has " + String.join(", ", defaults.keySet()) + ")"));
            }
            if (!d.equals(e.getValue())) return false;
        }
        return true;
    }

    private static final Pattern PROPERTY = Pattern.compile("<([a-z][a-z0-9-]*)" + Pattern.quote(SUFFIX) + ">\\s*([^<\\s$]+)\\s*</\\1" + Pattern.quote(SUFFIX) + ">");

    /** The NAME.version properties of the stack's pom (its own properties block), by NAME: the versions it builds by default. */
    public static Map<String, String> pomDefaults(Stack stack) throws UsageError {
        Path pom = stack.dir().resolve("pom.xml");
        String text;
        try {
            text = Files.readString(pom);
        } catch (IOException e) {
            throw new UsageError("stack " + stack.name() + " has no readable " + pom + ": it cannot be built with other versions");
        }
        int from = text.indexOf("<properties>"), to = text.indexOf("</properties>");
        Map<String, String> out = new LinkedHashMap<>();
        if (from < 0 || to < from) return out;
        Matcher m = PROPERTY.matcher(text.substring(from, to));
        while (m.find()) out.put(m.group(1), m.group(2));
        return out;
    }

    /**
     * The variant's jar, built now unless a build newer than the stack's sources is there; the pom's defaults are the
     * stack's own jar (built by ./vtlab build). Maven offline first (everything already in ~/.m2), online once if that
     * fails; a version Maven cannot resolve is refused in one line with Maven's reason.
     */
    public static Path ensure(Stack stack, Variant v) throws UsageError {
        if (isDefault(stack, v)) return stack.jar();
        Path jar = dir().resolve(v.fileName());
        if (fresh(jar, sources(stack))) return jar;
        Path home = LabHome.get();
        Path log = dir().resolve(v.fileName().replaceAll("\\.jar$", "") + ".build.log");
        Path out = dir().resolve("build").resolve(v.fileName().replaceAll("\\.jar$", ""));
        System.err.println("vtlab: building " + stack.name() + " with " + v.words() + " into " + home.relativize(jar)
                + " (once, reused while the stack's sources do not change; log " + home.relativize(log) + ")");
        try {
            Files.createDirectories(dir());
            int exit = maven(home, stack, v, out, log, true);
            if (exit != 0) {
                System.err.println("vtlab: not everything is in the local Maven repository: building " + v.words() + " online");
                exit = maven(home, stack, v, out, log, false);
            }
            if (exit != 0) {
                vtlab.core.Folders.deleteTree(out);
                throw new UsageError("stack " + stack.name() + " could not be built with " + v.words() + ": " + reason(log) + " (" + log + ")");
            }
            Path built = out.resolve(stack.jar().getFileName());
            if (!Files.isRegularFile(built)) throw new UsageError("building " + stack.name() + " with " + v.words() + " left no " + built);
            Path tmp = dir().resolve(v.fileName() + ".tmp");
            Files.copy(built, tmp, StandardCopyOption.REPLACE_EXISTING);
            Files.move(tmp, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            vtlab.core.Folders.deleteTree(out);
            try (Stream<Path> left = Files.list(out.getParent())) {
                if (left.findAny().isEmpty()) Files.delete(out.getParent());
            }
            return jar;
        } catch (IOException e) {
            throw new UsageError("stack " + stack.name() + " could not be built with " + v.words() + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UsageError("interrupted while building " + stack.name() + " with " + v.words());
        }
    }

    /**
     * The wrapper's build of the stack and the lab modules it depends on (-am: the pin control is not in ~/.m2), into
     * its own build directory so the stack's target/ jar stays the defaults' build.
     */
    static List<String> command(Path home, Stack stack, Variant v, Path out, boolean offline) {
        List<String> cmd = new ArrayList<>(List.of(home.resolve("mvnw").toString(), "-B", "-q"));
        if (offline) cmd.add("-o");
        cmd.addAll(List.of("-f", home.resolve("pom.xml").toString(), "-pl", home.relativize(stack.dir().toAbsolutePath().normalize()).toString(),
                "-am", "package", "-DskipTests", "-Dvtlab.buildDirectory=" + out));
        cmd.addAll(v.mavenArgs());
        return cmd;
    }

    private static int maven(Path home, Stack stack, Variant v, Path out, Path log, boolean offline) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command(home, stack, v, out, offline)).directory(home.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("JAVA_HOME", Jdk.current().home().toString()); // the lab's JDK builds, as ./vtlab build does
        Process p = Children.track(pb.start());
        if (!p.waitFor(BUILD_MAX.toMinutes(), TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IOException("the build took over " + BUILD_MAX.toMinutes() + " minutes");
        }
        return p.exitValue();
    }

    /** Maven's first error, its lines joined up to its help link (the artifact it could not resolve), else the log's last line. */
    static String reason(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            List<String> error = new ArrayList<>();
            for (String l : lines) {
                if (!l.startsWith("[ERROR]")) continue;
                String text = l.substring(7).strip();
                if (text.startsWith("-> [Help") || (text.isEmpty() && !error.isEmpty())) break;
                if (!text.isEmpty()) error.add(text);
            }
            String why = !error.isEmpty() ? String.join("; ", error) : lines.isEmpty() ? "(no output)" : lines.getLast().strip();
            return why.length() > 400 ? why.substring(0, 400) + "..." : why;
        } catch (IOException e) {
            return "(no log)";
        }
    }

    /**
     * What a variant is built from: the stack's folder (but target/), the parent pom and the lab modules the stack's
     * pom depends on (vtlab-pin-control: stacks/pin-control; vtlab-sut-kit: stacks/sut-kit).
     */
    static List<Path> sources(Stack stack) throws UsageError {
        Path dir = stack.dir().toAbsolutePath().normalize();
        List<Path> out = new ArrayList<>(List.of(dir, dir.getParent().getParent().resolve("pom.xml")));
        try {
            Matcher m = Pattern.compile("<artifactId>vtlab-([a-z0-9-]+)</artifactId>").matcher(Files.readString(dir.resolve("pom.xml")));
            while (m.find()) {
                Path module = dir.getParent().resolve(m.group(1));
                if (!module.equals(dir) && Files.isDirectory(module)) out.add(module);
            }
        } catch (IOException e) {
            throw new UsageError("stack " + stack.name() + " has no readable pom.xml");
        }
        return out;
    }

    /** Whether the jar is there and newer than every file of the sources (target/ folders left out). */
    static boolean fresh(Path jar, List<Path> sources) {
        if (!Files.isRegularFile(jar)) return false;
        try {
            FileTime built = Files.getLastModifiedTime(jar);
            return newest(sources).compareTo(built) < 0;
        } catch (IOException e) {
            return false;
        }
    }

    static FileTime newest(List<Path> sources) throws IOException {
        FileTime newest = FileTime.fromMillis(0);
        for (Path s : sources) {
            if (!Files.exists(s)) continue;
            try (Stream<Path> files = Files.walk(s)) {
                for (Path f : files.filter(f -> !inTarget(s.relativize(f))).filter(Files::isRegularFile).toList()) {
                    FileTime t = Files.getLastModifiedTime(f);
                    if (t.compareTo(newest) > 0) newest = t;
                }
            }
        }
        return newest;
    }

    private static boolean inTarget(Path relative) {
        for (Path part : relative) if (part.toString().equals("target")) return true;
        return false;
    }

}
