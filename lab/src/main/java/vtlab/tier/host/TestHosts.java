package vtlab.tier.host;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import vtlab.core.UsageError;
import vtlab.proc.Commands;
import vtlab.proc.CoreMap;
import vtlab.tier.tool.Tools;

/**
 * Hosts of its own on this machine, for the lab's tests and for trying a topology before real hosts: N network
 * namespaces vtlab-h1..N, each with a veth link onto the bridge vtlab-br0 (10.77.0.1/24 on this machine's side,
 * 10.77.0.(10+i) in namespace i, no default route: traffic only to those addresses) and an sshd of its own listening
 * on that address (host key, config, log and pid under .vtlab/hosts/hI/, key authentication only, with a key the lab
 * generates). The namespaces share this machine's files, CPUs and memory: they show the mechanics of several hosts
 * (every command and copy goes through ssh and scp as to a real host), not more capacity.
 */
public final class TestHosts {
    public static final String BRIDGE = "vtlab-br0", NAMESPACE = "vtlab-h", BRIDGE_ADDRESS = "10.77.0.1";
    public static final int MAX = 50;
    private static final Pattern OURS = Pattern.compile("vtlab-h\\d+");
    private static final Duration SHORT = Duration.ofSeconds(20);
    /** How long the hosts' processes (all at once) get to end on SIGTERM before they are killed. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(3);

    private final Path dir;

    /** @param dir where keys, configs and logs live (.vtlab/hosts) */
    public TestHosts(Path dir) {
        this.dir = dir.toAbsolutePath();
    }

    public static String namespace(int i) {
        return NAMESPACE + i;
    }

    public static String address(int i) {
        return "10.77.0." + (10 + i);
    }

    /** This machine's end of host i's veth pair (on the bridge); the other end is eth0 in the namespace. */
    static String veth(int i) {
        return "vtlab-v" + i;
    }

    public Path identity() {
        return dir.resolve("id_ed25519");
    }

    public Path knownHosts() {
        return dir.resolve("known_hosts");
    }

    Path hostDir(int i) {
        return dir.resolve("h" + i);
    }

    /** Refuses, before anything is made, a user who is not root, a machine without ip, or one where ip netns does not work. */
    public static void requirePrivileges() throws UsageError, InterruptedException {
        if (!root()) throw new UsageError("test hosts need root (network namespaces, veth links, a bridge): run as root or with sudo");
        if (Tools.IP.find().isEmpty()) throw new UsageError("no ip command (iproute2): ./vtlab setup ip installs it");
        Commands.Result r;
        try {
            r = Commands.attempt(List.of("ip", "netns", "list"), SHORT);
        } catch (IOException e) {
            throw new UsageError("ip netns is not available here: " + e.getMessage());
        }
        if (!r.ok()) throw new UsageError("ip netns is not available here: " + r.output().strip().lines().findFirst().orElse("exit " + r.code()));
    }

    private static boolean root() {
        try {
            return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        } catch (IOException | RuntimeException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }

    /**
     * Replaces whatever test hosts are up with n fresh ones (keys kept between calls, so the topology file and
     * known_hosts stay valid), each answering ssh, and writes their topology file to out. On a failure everything
     * made so far is removed again.
     */
    public Topology up(int n, Path out) throws IOException, InterruptedException, UsageError {
        if (n < 1 || n > MAX) throw new UsageError("hosts up: N must be between 1 and " + MAX + ", not " + n);
        requirePrivileges();
        Path sshd;
        try {
            sshd = Tools.SSHD.get();
        } catch (IOException e) {
            throw new UsageError("no sshd for the test hosts: " + e.getMessage());
        }
        down();
        try {
            Files.createDirectories(dir);
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
            Files.createDirectories(Path.of("/run/sshd")); // sshd's privilege separation folder (shared by every namespace)
            key(identity(), "vtlab-test-hosts");
            Files.copy(identity().resolveSibling("id_ed25519.pub"), dir.resolve("authorized_keys"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            ip("link", "add", BRIDGE, "type", "bridge");
            ip("addr", "add", BRIDGE_ADDRESS + "/24", "dev", BRIDGE);
            ip("link", "set", BRIDGE, "up");
            StringBuilder known = new StringBuilder();
            for (int i = 1; i <= n; i++) {
                String ns = namespace(i), v = veth(i);
                ip("netns", "add", ns);
                ip("link", "add", v, "type", "veth", "peer", "name", v + "p");
                ip("link", "set", v + "p", "netns", ns);
                ip("-n", ns, "link", "set", v + "p", "name", "eth0");
                ip("-n", ns, "addr", "add", address(i) + "/24", "dev", "eth0");
                ip("-n", ns, "link", "set", "eth0", "up");
                ip("-n", ns, "link", "set", "lo", "up");
                ip("link", "set", v, "master", BRIDGE, "up");
                Path h = Files.createDirectories(hostDir(i));
                Path hostKey = h.resolve("ssh_host_ed25519_key");
                key(hostKey, ns);
                Files.writeString(h.resolve("sshd_config"), sshdConfig(address(i), hostKey, h.resolve("sshd.pid"), dir.resolve("authorized_keys")));
                Files.deleteIfExists(h.resolve("sshd.log"));
                // sshd detaches (its pid in sshd.pid): the host stays up after this command, until hosts down
                Commands.run(List.of("ip", "netns", "exec", ns, sshd.toString(), "-f", h.resolve("sshd_config").toString(),
                        "-E", h.resolve("sshd.log").toString()), SHORT);
                String[] pub = Files.readString(hostKey.resolveSibling("ssh_host_ed25519_key.pub")).strip().split("\\s+");
                known.append(address(i)).append(' ').append(pub[0]).append(' ').append(pub[1]).append('\n');
            }
            Files.writeString(knownHosts(), known);
            for (int i = 1; i <= n; i++) awaitPort(i, Duration.ofSeconds(10));
            Files.writeString(out, topology(n, CoreMap.compute(vtlab.proc.LabAffinity.machineCpus(), null)));
            return Topology.read(out);
        } catch (IOException | InterruptedException | UsageError | RuntimeException e) {
            try {
                down();
            } catch (IOException | RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    /**
     * Removes every test host: each namespace's processes (its sshd and whatever was started over ssh in it) stopped
     * by their ids, the namespaces (their veth ends go with them), any veth left, the bridge. Returns what it removed;
     * nothing there is not an error.
     */
    public List<String> down() throws IOException, InterruptedException {
        List<String> removed = new ArrayList<>();
        // every namespace's processes told to stop before any is waited for: an sshd takes about 2 s to act on SIGTERM,
        // and three hosts waited for one after the other took 6 s of every test's teardown
        Map<String, List<ProcessHandle>> byNamespace = new LinkedHashMap<>();
        for (String ns : namespaces()) {
            List<ProcessHandle> procs = new ArrayList<>();
            for (String pid : Commands.attempt(List.of("ip", "netns", "pids", ns), SHORT).output().split("\\s+")) {
                if (pid.matches("\\d+")) ProcessHandle.of(Long.parseLong(pid)).ifPresent(procs::add);
            }
            procs.forEach(ProcessHandle::destroy);
            byNamespace.put(ns, procs);
        }
        long deadline = System.nanoTime() + STOP_GRACE.toNanos();
        for (var e : byNamespace.entrySet()) {
            List<ProcessHandle> procs = e.getValue();
            for (ProcessHandle p : procs) {
                if (!vtlab.proc.Exits.await(p, java.time.Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))) p.destroyForcibly();
            }
            Commands.run(List.of("ip", "netns", "del", e.getKey()), SHORT);
            removed.add(e.getKey() + (procs.isEmpty() ? "" : " (" + procs.size() + " process" + (procs.size() == 1 ? "" : "es") + " stopped)"));
        }
        for (String line : Commands.run(List.of("ip", "-o", "link", "show"), SHORT).lines().toList()) {
            // "7: vtlab-v1@if6: <...>": a veth whose namespace went without it
            String[] f = line.split(":\\s+", 3);
            String name = f.length > 1 ? f[1].replaceFirst("@.*", "") : "";
            if (name.matches("vtlab-v\\d+p?")) {
                // a namespace's veth end goes with it a moment after "ip netns del": gone by now is not an error
                if (!Commands.attempt(List.of("ip", "link", "del", name), SHORT).ok()
                        && Commands.attempt(List.of("ip", "link", "show", name), SHORT).ok()) {
                    Commands.run(List.of("ip", "link", "del", name), SHORT);
                }
                removed.add(name);
            }
        }
        if (Commands.attempt(List.of("ip", "link", "show", BRIDGE), SHORT).ok()) {
            Commands.run(List.of("ip", "link", "del", BRIDGE), SHORT);
            removed.add(BRIDGE);
        }
        return removed;
    }

    /** The test hosts' namespaces that exist now. */
    public static List<String> namespaces() throws IOException, InterruptedException {
        List<String> ours = new ArrayList<>();
        // "vtlab-h1 (id: 0)" or "vtlab-h1"
        for (String line : Commands.run(List.of("ip", "netns", "list"), SHORT).lines().toList()) {
            String name = line.strip().split("\\s+")[0];
            if (OURS.matcher(name).matches()) ours.add(name);
        }
        return ours;
    }

    /**
     * One host's sshd: on its address only, key authentication only (root with a key, as on a lab machine), sftp for
     * scp. StrictModes off: the lab's folder may sit anywhere (a test's temporary folder under /tmp), and the key is
     * the lab's own test key. A client that stops answering is given up as the lab's ssh gives up a silent host
     * (ClientAlive, 2 s × 3): a lost lab leaves no session behind once the host is cut off.
     */
    static String sshdConfig(String address, Path hostKey, Path pid, Path authorizedKeys) {
        return """
                # written by ./vtlab hosts up: the sshd of a test host (network namespace)
                ListenAddress %s
                Port 22
                HostKey %s
                PidFile %s
                AuthorizedKeysFile %s
                PermitRootLogin prohibit-password
                PubkeyAuthentication yes
                PasswordAuthentication no
                KbdInteractiveAuthentication no
                UsePAM no
                StrictModes no
                PrintMotd no
                Subsystem sftp internal-sftp
                ClientAliveInterval 2
                ClientAliveCountMax 3
                """.formatted(address, hostKey, pid, authorizedKeys);
    }

    /**
     * The topology of n test hosts: the SUT on h1, a load agent on each of h2..N (a single host: load local), the
     * database and the stub on this machine (reached from the hosts at {@link #BRIDGE_ADDRESS}), the SUT and the
     * agents pinned to the CPUs the local core map gives the SUT and the generator (the hosts share this machine's CPUs).
     */
    String topology(int n, CoreMap cores) {
        StringBuilder t = new StringBuilder("""
                # written by ./vtlab hosts up %d: test hosts in network namespaces on this machine (./vtlab hosts down removes them).
                # pg and stub stay on this machine, which the hosts reach at %s. For real hosts, replace each host with
                # user@host[:port], and identity/known_hosts with your own (or leave them out: your ssh config applies).
                pg = "local"
                stub = "local"
                """.formatted(n, BRIDGE_ADDRESS));
        if (n == 1) t.append("load = \"local\"\n"); // before the first table, or TOML would read it as the sut's
        entry(t, "[sut]", 1, cores.of(CoreMap.APP));
        for (int i = 2; i <= n; i++) entry(t, "[[load]]", i, cores.of(CoreMap.LOAD));
        return t.toString();
    }

    private void entry(StringBuilder t, String header, int i, String cpus) {
        t.append('\n').append(header).append('\n')
                .append("host = ").append(string("root@" + address(i))).append('\n')
                .append("identity = ").append(string(identity().toString())).append('\n')
                .append("known_hosts = ").append(string(knownHosts().toString())).append('\n')
                .append("cpus = ").append(string(cpus)).append('\n');
    }

    /** A TOML basic string. */
    static String string(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static void ip(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("ip"));
        cmd.addAll(List.of(args));
        Commands.run(cmd, SHORT);
    }

    /** An ed25519 key pair without passphrase, made once and kept. */
    private static void key(Path file, String comment) throws IOException, InterruptedException {
        if (Files.exists(file) && Files.exists(file.resolveSibling(file.getFileName() + ".pub"))) return;
        Files.deleteIfExists(file);
        Files.deleteIfExists(file.resolveSibling(file.getFileName() + ".pub"));
        Commands.run(List.of("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", file.toString()), SHORT);
    }

    private void awaitPort(int i, Duration max) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        IOException last = null;
        while (System.nanoTime() < deadline) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(address(i), 22), 1000);
                return;
            } catch (IOException e) {
                last = e;
                Thread.sleep(100);
            }
        }
        throw new IOException("test host " + i + ": sshd does not answer on " + address(i) + ":22 (" + last + "): "
                + vtlab.proc.LogTail.of(hostDir(i).resolve("sshd.log"), 3));
    }
}
