package vtlab.tier.tool;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;

/** A command from a Debian package, taken at the version the OS ships (wrk, hey, chromium, chromedriver). */
record AptTool(String name, String command, String debianPackage, Function<Path, String> version) implements Tool {
    /** A command that prints its version for these arguments: the line that starts with its name, else the first. */
    static AptTool printing(String name, String command, String debianPackage, String... versionArgs) {
        // the line that starts with the tool's name: Debian's chromium wrapper prints its shell's complaints first
        return new AptTool(name, command, debianPackage, p -> {
            String out = RegistryTools.output(p, versionArgs);
            return out == null ? null : out.lines().map(String::trim).filter(l -> l.toLowerCase().startsWith(command)).findFirst().orElse(firstLine(out));
        });
    }

    static String firstLine(String out) {
        return out == null || out.isBlank() ? null : out.lines().findFirst().orElse("").trim();
    }

    @Override
    public String pinned() {
        return null;
    }

    @Override
    public String source() {
        return "Debian package " + debianPackage;
    }

    @Override
    public Optional<Path> find() {
        return OsPackages.which(command);
    }

    @Override
    public String versionAt(Path found) {
        return version.apply(found);
    }

    @Override
    public Path install() throws IOException {
        OsPackages.requireInstall(debianPackage);
        return find().orElseThrow(() -> new IOException("apt-get install " + debianPackage + " left no " + command + " on PATH"));
    }
}
