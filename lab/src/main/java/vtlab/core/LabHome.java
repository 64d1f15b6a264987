package vtlab.core;

import java.nio.file.Path;

/** The lab's checkout (set by the launcher as -Dvtlab.home): stacks/, bench/, results/ and .vtlab/ live under it. */
public final class LabHome {
    private LabHome() {}

    public static Path get() {
        return Path.of(System.getProperty("vtlab.home", ".")).toAbsolutePath().normalize();
    }
}
