package vtlab.tier.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import vtlab.proc.Commands;

/**
 * N test hosts for an end-to-end test (as root), the fixture HostsIT, RemoteRunIT and HostLostIT share: brought up
 * before each test in a temporary folder of their own (keys, sshd configs, logs, and the topology file hosts.toml
 * beside them), removed after it whatever happened (hosts down: every process in the namespaces, the namespaces, links
 * and bridge), the folder deleted. Register it with {@code @RegisterExtension final HostsFixture hosts = new HostsFixture(3);}.
 */
public final class HostsFixture implements BeforeEachCallback, AfterEachCallback {
    private static final Duration SHORT = Duration.ofSeconds(10);
    private final int n;
    private Path dir;
    private TestHosts hosts;
    private Topology topology;

    public HostsFixture(int n) {
        this.n = n;
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        dir = Files.createTempDirectory("vtlab-hosts-it");
        hosts = new TestHosts(dir.resolve("hosts"));
        topology = hosts.up(n, file());
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        try {
            if (hosts != null) hosts.down();
        } finally {
            if (dir != null) {
                try (var all = Files.walk(dir)) {
                    for (Path p : all.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
                }
            }
        }
    }

    /** The topology file hosts up wrote: the SUT on h1, a load agent on each of h2..N. */
    public Path file() {
        return dir.resolve("hosts.toml");
    }

    public Topology topology() {
        return topology;
    }

    public TestHosts hosts() {
        return hosts;
    }

    /** The fixture's own folder (hosts/ and hosts.toml in it), for files a test makes beside them. */
    public Path dir() {
        return dir;
    }

    /** Host i's sshd, by the pid file it wrote. */
    public long sshd(int i) throws IOException {
        return Long.parseLong(Files.readString(hosts.hostDir(i).resolve("sshd.pid")).strip());
    }

    /** Cuts host i off: this machine's end of its link (on the bridge) down, as a pulled cable; its processes run on. */
    public void linkDown(int i) throws IOException, InterruptedException {
        Commands.run(List.of("ip", "link", "set", TestHosts.veth(i), "down"), SHORT);
    }

    /** Host i reachable again. */
    public void linkUp(int i) throws IOException, InterruptedException {
        Commands.run(List.of("ip", "link", "set", TestHosts.veth(i), "up"), SHORT);
    }

    /** The processes in a namespace now. */
    public static List<ProcessHandle> pids(String ns) throws IOException, InterruptedException {
        List<ProcessHandle> out = new ArrayList<>();
        for (String pid : Commands.run(List.of("ip", "netns", "pids", ns), SHORT).split("\\s+")) {
            if (pid.matches("\\d+")) ProcessHandle.of(Long.parseLong(pid)).ifPresent(out::add);
        }
        return out;
    }

    /**
     * What runs in host i besides its sshd, waited for up to max to be nothing (a session's sshd child ends just after
     * its client): each as "pid command line", empty when nothing is left.
     */
    public List<String> besidesSshd(int i, Duration max) throws IOException, InterruptedException {
        long sshd = sshd(i), deadline = System.nanoTime() + max.toNanos();
        while (true) {
            List<String> others = pids(TestHosts.namespace(i)).stream().filter(p -> p.pid() != sshd)
                    .map(p -> p.pid() + " " + p.info().commandLine().orElse("?")).toList();
            if (others.isEmpty() || System.nanoTime() > deadline) return others;
            Thread.sleep(200);
        }
    }

    /** What of any test hosts exists now: their namespaces and every link named vtlab-… (the bridge, veths); empty once down. */
    public static List<String> remains() throws IOException, InterruptedException {
        List<String> out = new ArrayList<>(TestHosts.namespaces());
        for (String line : Commands.run(List.of("ip", "-o", "link", "show"), SHORT).lines().toList()) {
            String[] f = line.split(":\\s+", 3); // "7: vtlab-v1@if6: <...>"
            if (f.length > 1 && f[1].startsWith("vtlab-")) out.add(f[1].replaceFirst("@.*", ""));
        }
        return out;
    }

    /** The work folders of this JVM's runs across hosts still in /tmp (the test hosts share this machine's files). */
    public static List<String> workFoldersLeft() throws IOException {
        String mine = "vtlab-" + ProcessHandle.current().pid() + "-";
        try (var left = Files.list(Path.of("/tmp"))) {
            return left.map(p -> p.getFileName().toString()).filter(f -> f.startsWith(mine)).toList();
        }
    }
}
