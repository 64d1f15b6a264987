package vtlab.tier.tool;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;

/**
 * A tool the lab builds from a language registry at a pinned version into .vtlab/tools/bin (oha, k6). The lab's own
 * build is looked at first, then PATH; a binary of another version is never used: its numbers would not compare.
 */
record BuiltTool(String name, String binary, String pinned, String source, Function<Path, String> version, Builder builder,
                 String optInLicence) implements Tool {
    /** Builds the binary; its path, or why not. */
    interface Builder {
        Path build() throws IOException;
    }

    static BuiltTool cargo(String crate, String version, Function<Path, String> versionOf) {
        return new BuiltTool(crate, crate, version, "crates.io " + crate + " " + version + " (cargo install --locked)", versionOf,
                () -> RegistryTools.cargoInstall(crate, version, crate), null);
    }

    static BuiltTool go(String name, String module, String version, Function<Path, String> versionOf) {
        return new BuiltTool(name, name, version, "Go module " + module + "@" + version + " (go install)", versionOf,
                () -> RegistryTools.goInstall(module, version, name), null);
    }

    /** A Go command built under another name (see {@link RegistryTools#goInstall(String, String, String, String)}). */
    static BuiltTool go(String name, String module, String pkg, String builtAs, String version, Function<Path, String> versionOf) {
        return new BuiltTool(name, name, version, "Go module " + module + "@" + version + " (go install " + pkg + ")", versionOf,
                () -> RegistryTools.goInstall(pkg, version, builtAs, name), null);
    }

    /**
     * The same tool installed only when asked for by name (see {@link Tool#optInLicence}): its licence is said in one
     * line before it is installed.
     */
    BuiltTool optIn(String licence) {
        return new BuiltTool(name, binary, pinned, source, version, builder, licence);
    }

    @Override
    public Optional<Path> find() {
        return findIn(RegistryTools.bin(), OsPackages.path());
    }

    /** The lab's own build in ownBin first, then the first on the path, each only at the pinned version. */
    Optional<Path> findIn(Path ownBin, java.util.List<Path> path) {
        return OsPackages.first(binary, java.util.stream.Stream.concat(java.util.stream.Stream.of(ownBin), path.stream()).toList(), this::isPinned);
    }

    private boolean isPinned(Path p) {
        return pinned.equals(version.apply(p));
    }

    @Override
    public boolean buildingElsewhere() {
        return RegistryTools.earlierBuildInFlight(binary);
    }

    @Override
    public String versionAt(Path found) {
        return version.apply(found);
    }

    @Override
    public Path install() throws IOException {
        if (optInLicence != null) {
            System.err.println("vtlab: " + name + " " + pinned + " is licensed " + optInLicence + "; installed only when asked for by name (--generator "
                    + name + ", ./vtlab setup " + name + "), never by default");
        }
        Path p = builder.build();
        String v = version.apply(p);
        if (!pinned.equals(v)) throw new IOException("the build of " + name + " " + pinned + " reports version " + v);
        return p;
    }
}
