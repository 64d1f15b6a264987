package vtlab.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Folders the lab makes and removes (a cluster's data, a variant's build, a cache of an earlier build). */
public final class Folders {
    private Folders() {}

    /** Removes the folder and everything in it; nothing when it does not exist. */
    public static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) return;
        try (Stream<Path> s = Files.walk(p)) {
            for (Path f : s.sorted(Comparator.reverseOrder()).toList()) Files.delete(f);
        }
    }
}
