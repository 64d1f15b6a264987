package vtlab.tier.host;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import vtlab.proc.Children;
import vtlab.proc.Commands;
import vtlab.proc.Env;

/**
 * What a run across hosts holds on them: one {@link Host} per destination of the topology, a work folder on each
 * (/tmp/vtlab-ID: this run's jars, scripts, env files and pid files), one {@link FileSession} per host for the probes,
 * and every process started there. {@link #finish} (end of the run, and on Ctrl-C through {@link Children}) stops what
 * still runs, names any group a pid file shows still alive (and kills it), and removes the work folders.
 * <p>
 * A host lost mid-run: the processes there whose stop could not reach it are kept, and stopped there as soon as the
 * host answers again — when {@link #unreachable} (asked before the next row) finds it back, or at the end; a host
 * still silent at the end is named with what is left on it ({@link #notReached}).
 */
public final class HostRun implements AutoCloseable {
    static final Duration SHORT = Duration.ofSeconds(30), COPY = Duration.ofMinutes(5);
    /** Every pid file left in a work folder whose group still lives: named, killed; then the folder goes. */
    static final String SWEEP = """
            for f in "$1"/*.pid; do
              [ -f "$f" ] || continue
              p=$(cat "$f")
              if [ -n "$p" ] && kill -s 0 -- "-$p" 2>/dev/null; then echo "$f"; kill -s KILL -- "-$p" 2>/dev/null; fi
            done
            rm -rf -- "$1"
            """;

    private final String id;
    private final Map<String, Host> hosts = new LinkedHashMap<>();
    private final Set<String> prepared = ConcurrentHashMap.newKeySet(), folders = ConcurrentHashMap.newKeySet();
    private final Map<String, FileSession> sessions = new ConcurrentHashMap<>();
    private final Map<String, String> addresses = new ConcurrentHashMap<>();
    private final Map<String, String> staged = new ConcurrentHashMap<>(), clients = new ConcurrentHashMap<>();
    private final Set<HostProcess> live = ConcurrentHashMap.newKeySet();
    /** Processes whose stop did not reach their host (lost): stopped there once it answers. */
    private final Set<HostProcess> unstopped = ConcurrentHashMap.newKeySet();
    /**
     * Hosts found silent this run, with ssh's words and when: asked again before anything is done there at the end,
     * unless found silent within {@link SshHost#SILENT_MAX} (each ask of a silent host costs its connect timeout).
     */
    private final Map<String, Silence> silent = new ConcurrentHashMap<>();
    private final Map<String, List<String>> roles = new LinkedHashMap<>();
    private final List<String> notReached = new ArrayList<>();
    private final Runnable onShutdown = this::finishQuietly;
    private boolean finished;

    private record Silence(String why, long at) {
        boolean recent() {
            return System.nanoTime() - at < SshHost.SILENT_MAX.toNanos();
        }
    }

    public HostRun(Topology t) {
        this(t, "vtlab-" + ProcessHandle.current().pid() + "-" + System.currentTimeMillis());
    }

    HostRun(Topology t, String id) {
        this(t, id, Host::of);
    }

    /** @param reach the host of an entry (tests: a host they can cut off) */
    HostRun(Topology t, String id, java.util.function.Function<HostSpec, Host> reach) {
        this.id = id;
        for (HostSpec s : t.all()) {
            hosts.computeIfAbsent(s.where(), k -> reach.apply(s));
            List<String> r = roles.computeIfAbsent(s.where(), k -> new ArrayList<>());
            if (!r.contains(s.role())) r.add(s.role());
        }
        Children.onShutdown(onShutdown);
    }

    /** The one host object of an entry's destination (several roles on one host share it, and its session). */
    public Host host(HostSpec s) {
        Host h = hosts.get(s.where());
        if (h == null) throw new IllegalArgumentException(s.where() + " is not a host of this run");
        return h;
    }

    /** The work folder's path, the same on every host. */
    public String dir() {
        return "/tmp/" + id;
    }

    /** The work folder on the host, made on first use (mode 700: env files are kept there). */
    public String dir(Host h) throws IOException, InterruptedException {
        if (!prepared.contains(h.name())) {
            h.output(List.of("mkdir", "-p", "-m", "700", dir()), SHORT);
            prepared.add(h.name());
        }
        return dir();
    }

    /** The host's file session (its /proc for the probes), opened on its first read. */
    public FileSession files(Host h) {
        return sessions.computeIfAbsent(h.name(), k -> new FileSession(h));
    }

    /**
     * The host's address as the lab reached it: the server side of $SSH_CONNECTION ("client port server port"), so a
     * service there listens where the lab (and agents on the same network) reach it; 127.0.0.1 for this machine.
     */
    public String address(Host h) throws IOException, InterruptedException {
        if (h.local()) return "127.0.0.1";
        String known = addresses.get(h.name());
        if (known != null) return known;
        String c = h.output(List.of("sh", "-c", "echo $SSH_CONNECTION"), SHORT).strip();
        String address = serverAddress(c);
        if (address == null) throw new IOException(h.name() + ": no server address in SSH_CONNECTION ('" + c + "')");
        addresses.put(h.name(), address);
        return address;
    }

    /** The third word of SSH_CONNECTION, or null when it is not four words. */
    static String serverAddress(String sshConnection) {
        String[] f = sshConnection.strip().split("\\s+");
        return f.length == 4 ? f[2] : null;
    }

    /**
     * This machine's address as the host sees it: the client side of $SSH_CONNECTION, so a tier here that a process
     * there connects to (the database or stub of a SUT on that host) listens where that host reaches it; 127.0.0.1
     * for this machine.
     */
    public String clientAddress(Host h) throws IOException, InterruptedException {
        if (h.local()) return "127.0.0.1";
        String known = clients.get(h.name());
        if (known != null) return known;
        String c = h.output(List.of("sh", "-c", "echo $SSH_CONNECTION"), SHORT).strip();
        String[] f = c.split("\\s+");
        if (f.length != 4) throw new IOException(h.name() + ": no client address in SSH_CONNECTION ('" + c + "')");
        clients.put(h.name(), f[0]);
        return f[0];
    }

    /**
     * A TCP port no socket on the host listens on now, for a tier started there (its database, its stub): drawn at
     * random above the usual service ports, those `ss -Htln` lists there left out (none listed when the host has no
     * ss: the draw alone, 1 in 40,000 to meet a taken one).
     */
    public int freePort(Host h) throws IOException, InterruptedException {
        Commands.Result r = h.run(List.of("sh", "-c", "ss -Htln 2>/dev/null || true"), SHORT);
        if (r.code() == 255 && !h.local()) throw new IOException(h.name() + ": " + r.output().strip());
        return freePort(listening(r.output()), new java.util.Random());
    }

    /** The ports of `ss -Htln` lines (local address:port is the 4th word; [::]:5432, 0.0.0.0:22, *:80). */
    static Set<Integer> listening(String ss) {
        Set<Integer> out = new java.util.HashSet<>();
        for (String line : ss.lines().toList()) {
            String[] f = line.strip().split("\\s+");
            if (f.length < 4) continue;
            String local = f[3];
            String port = local.substring(local.lastIndexOf(':') + 1);
            if (port.matches("\\d+")) out.add(Integer.parseInt(port));
        }
        return out;
    }

    static int freePort(Set<Integer> taken, java.util.Random random) {
        while (true) {
            int p = 20_000 + random.nextInt(40_000);
            if (!taken.contains(p)) return p;
        }
    }

    /**
     * A folder of this machine (a JDK) copied into the host's work folder as name, once per run (the next ask for the
     * same folder on the same host is answered with the path); its path there.
     */
    public String stageTree(Host h, Path folder, String name) throws IOException, InterruptedException {
        String key = h.name() + "|tree|" + folder.toAbsolutePath().normalize();
        synchronized (staged) {
            String known = staged.get(key);
            if (known != null) return known;
            String path = dir(h) + "/" + name;
            h.copyTreeTo(folder, path, COPY);
            staged.put(key, path);
            return path;
        }
    }

    /**
     * A file of this machine copied into the host's work folder as name (which may name a folder in it, made first),
     * once per content (sha-256) and run; its path there.
     */
    public String stage(Host h, Path file, String name) throws IOException, InterruptedException {
        String path = dir(h) + "/" + name, sha = sha256(file);
        if (sha.equals(staged.get(h.name() + "|" + path))) return path;
        int slash = name.lastIndexOf('/');
        if (slash > 0 && folders.add(h.name() + "|" + name.substring(0, slash))) {
            h.output(List.of("mkdir", "-p", "--", dir() + "/" + name.substring(0, slash)), SHORT);
        }
        h.copyTo(file, path, COPY);
        staged.put(h.name() + "|" + path, sha);
        return path;
    }

    /** A file copied into the host's work folder under a name of its content (so the same file is copied once): its path there. */
    public String stageContent(Host h, Path file, String suffix) throws IOException, InterruptedException {
        return stage(h, file, sha256(file).substring(0, 16) + suffix);
    }

    /**
     * Variables for a process on the host, as a file its wrapper sources (ssh forwards none; a file keeps their
     * values off every command line, where ps would show them): written here readable by the owner only, copied
     * into the work folder (itself the owner's only), the local copy removed. Its path there.
     */
    public String envFile(Host h, String name, Env env) throws IOException, InterruptedException {
        Path tmp = Files.createTempFile("vtlab-env", ".sh"); // rw------- on POSIX
        try {
            Files.writeString(tmp, envText(env));
            String path = dir(h) + "/" + name;
            h.copyTo(tmp, path, SHORT);
            return path;
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** NAME='value' lines a POSIX shell sources; a name that is not a shell variable's is refused. */
    static String envText(Env env) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (var e : env.asMap().entrySet()) {
            if (!e.getKey().matches("[A-Za-z_][A-Za-z0-9_]*")) throw new IOException("'" + e.getKey() + "' cannot be a shell variable");
            sb.append(e.getKey()).append('=').append(SshHost.quote(e.getValue())).append('\n');
        }
        return sb.toString();
    }

    /** Starts a process of this run on the host (see {@link HostProcess}); stopped by {@link #stop} or at the latest by {@link #finish}. */
    public HostProcess start(Host h, String name, List<String> cmd, String envFile, Path output) throws IOException, InterruptedException {
        HostProcess p = HostProcess.start(h, files(h), dir(h), name, cmd, envFile, output);
        live.add(p);
        return p;
    }

    /**
     * Stops a process of this run where it runs. One whose host was lost under it is kept, and stopped there once the
     * host answers again (its local client is ended now).
     */
    public void stop(HostProcess p) throws IOException, InterruptedException {
        if (unstopped.contains(p)) return; // its host was lost: said once, left for when the host answers
        try {
            p.stop();
            live.remove(p);
        } catch (IOException e) {
            if (p.lost() != null) {
                unstopped.add(p);
                silent.put(p.host().name(), new Silence(p.answer(), System.nanoTime()));
            } else {
                live.remove(p);
            }
            throw e;
        }
    }

    /**
     * Whether every host of the run answers a new session now (asked after a row failed: a host lost mid-row stops
     * the run unless it is back): null when each does — and then what a lost host's stop could not reach is stopped
     * there now — else one line naming each host that does not, with its roles and ssh's words.
     */
    public String unreachable() throws InterruptedException {
        List<String> silentNow = new ArrayList<>();
        for (Host h : hosts.values()) {
            if (h.local()) continue;
            String why = h.unreachable();
            if (why != null) {
                silent.put(h.name(), new Silence(why, System.nanoTime()));
                silentNow.add(h.name() + " (" + String.join(", ", roles.getOrDefault(h.name(), List.of())) + ") does not answer: " + why);
            } else {
                silent.remove(h.name());
                stopLeftOn(h);
            }
        }
        return silentNow.isEmpty() ? null : String.join("; ", silentNow);
    }

    /** Stops there what a lost host's stop could not reach, the host answering again; what still fails stays for the end. */
    private void stopLeftOn(Host h) throws InterruptedException {
        for (HostProcess p : List.copyOf(unstopped)) {
            if (p.host() != h) continue;
            try {
                p.stopThere();
                unstopped.remove(p);
                live.remove(p);
            } catch (IOException e) {
                // tried again at the end
            }
        }
    }

    /**
     * The hosts the end could not reach, each with what is left there (the work folder, and any process its pid
     * files name: stopped by the next run's sweep of that folder, or by hand); empty when every host was swept.
     */
    public synchronized List<String> notReached() {
        return List.copyOf(notReached);
    }

    /**
     * Stops every process of the run still running, sweeps every work folder (a group still alive behind a pid file
     * is named and killed) and removes it, closes the sessions. What was found still running, as "host: pid file"
     * (empty: nothing was left behind); once.
     */
    public synchronized List<String> finish() throws InterruptedException {
        if (finished) return List.of();
        finished = true;
        Children.removeOnShutdown(onShutdown);
        List<String> left = new ArrayList<>();
        for (HostProcess p : List.copyOf(live)) {
            if (unstopped.contains(p)) continue; // its host was lost: below, with its host
            try {
                stop(p);
            } catch (IOException e) {
                if (!unstopped.contains(p)) left.add(p.host().name() + ": " + p.name() + " (" + e.getMessage() + ")");
            }
        }
        for (Host h : hosts.values()) {
            boolean used = prepared.contains(h.name()) || unstopped.stream().anyMatch(p -> p.host() == h);
            if (!used) continue;
            Silence found = silent.get(h.name());
            if (found != null) {
                // a short connect: a host still lost costs seconds, not a command's timeout; none when it was just found so
                String why = found.recent() ? found.why() : h.unreachable();
                if (why != null) {
                    notReached.add(h.name() + " (" + why + "): " + dir() + " left there, with any process its pid files name");
                    continue;
                }
                stopLeftOn(h);
            }
            try {
                Commands.Result r = h.run(List.of("sh", "-c", SWEEP, "sh", dir()), SHORT);
                if (r.code() == 255 && !h.local()) {
                    notReached.add(h.name() + " (" + r.output().strip().lines().findFirst().orElse("ssh failed") + "): " + dir()
                            + " left there, with any process its pid files name");
                    continue;
                }
                r.output().lines().filter(l -> !l.isBlank()).forEach(l -> left.add(h.name() + ": " + l.strip()));
                if (!r.ok()) left.add(h.name() + ": work folder " + dir() + " not removed (" + r.code() + ")");
            } catch (IOException e) {
                left.add(h.name() + ": " + e.getMessage());
            }
        }
        sessions.values().forEach(FileSession::close);
        for (Host h : hosts.values()) h.closeConnection(); // no ssh session of the run's left on its hosts
        return left;
    }

    private void finishQuietly() {
        try {
            List<String> left = finish();
            if (!left.isEmpty()) System.err.println("vtlab: still running on hosts, killed: " + String.join(", ", left));
            if (!notReached().isEmpty()) System.err.println("vtlab: hosts not reached at the end: " + String.join("; ", notReached()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        finishQuietly();
    }

    static String sha256(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) d.update(buf, 0, n);
            return HexFormat.of().formatHex(d.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
