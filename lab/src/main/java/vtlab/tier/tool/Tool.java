package vtlab.tier.tool;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * An external program the lab runs (a load generator, the database server, a browser, a second JDK): where the lab
 * looks for it, which version it accepts and how it installs it. Every lookup goes through {@link Tools}, so the
 * lab, its tests and ./vtlab setup all find the same binary.
 */
public interface Tool {
    /** Name in the registry and on the command line (./vtlab setup NAME). */
    String name();

    /** The version the lab pins, or null where the OS package's version is taken as it is. */
    String pinned();

    /** Where it comes from, e.g. "Debian package wrk" or "crates.io oha 1.16.0 (cargo install)". */
    String source();

    /**
     * The licence of a tool installed only when a run or ./vtlab setup asks for it by name (k6: AGPL-3.0), said in one
     * line before it is installed; null for a tool of the default set ({@link Tools#defaults()}).
     */
    default String optInLicence() {
        return null;
    }

    /**
     * A build of it is under way elsewhere (./vtlab test starts oha's first, at idle priority): setup installs every
     * other tool before it waits for that build.
     */
    default boolean buildingElsewhere() {
        return false;
    }

    /** The installed tool (at its pinned version, where pinned) without installing anything. */
    Optional<Path> find();

    /** What a found binary says its version is, for doctor and setup; null if it says nothing. */
    String versionAt(Path found);

    /** Installs it and gives its path, or says why it cannot (the message is shown as it is). */
    Path install() throws IOException;

    /** The tool, installed now if it is missing. */
    default Path get() throws IOException {
        Optional<Path> f = find();
        return f.isPresent() ? f.get() : install();
    }
}
