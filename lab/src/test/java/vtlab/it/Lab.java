package vtlab.it;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import vtlab.data.Dataset;

/** Helpers for the end-to-end tests: the repo, a free port, the lab as a child process, a run's rows. */
final class Lab {
    private Lab() {}

    static Path home() {
        return Path.of(System.getProperty("vtlab.home")).toAbsolutePath();
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** The packaged lab as its own JVM, as ./vtlab starts it. */
    static ProcessBuilder cli(List<String> args) {
        Path target = home().resolve("lab/target");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dvtlab.home=" + home(), "-Dvtlab.java=" + System.getProperty("java.home"),
                "-cp", target.resolve("vtlab-lab.jar") + ":" + target.resolve("lib") + "/*", "vtlab.cli.Main"));
        cmd.addAll(args);
        return new ProcessBuilder(cmd);
    }

    static Path onlyRun(Path out) throws IOException {
        try (var s = Files.list(out)) {
            return s.filter(p -> !p.getFileName().toString().equals("latest") && Files.isDirectory(p)).findFirst().orElseThrow();
        }
    }

    static List<Map<String, String>> rows(Path run) throws IOException {
        Path m = run.resolve("matrix.csv");
        return Files.exists(m) ? Dataset.read(m) : List.of();
    }

    static double num(Map<String, String> row, String col) {
        return Double.parseDouble(row.get(col));
    }
}
