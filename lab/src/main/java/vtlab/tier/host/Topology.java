package vtlab.tier.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;

import vtlab.core.UsageError;
import vtlab.proc.CoreMap;

/**
 * Where each tier runs (--hosts hosts.toml): the SUT, the database, the stub and one or more load agents, each on
 * this machine ("local") or on a host reached with the user's own ssh. Read with Jackson's TOML reader; every
 * mistake is refused in one line before anything starts. The form, in full (docs/design.md, "Beyond one machine"):
 *
 * <pre>
 * pg = "local"                      # a role given as a string is its host alone; pg and stub default to local
 *                                   # (before the first table: TOML puts a key after [sut] into sut)
 * [sut]
 * host = "root@10.77.0.11"          # "local", or [user@]host[:port]
 * identity = "keys/id_ed25519"      # optional: ssh -i (relative paths: from this file's folder)
 * known_hosts = "keys/known_hosts"  # optional: a known_hosts file of its own
 * cpus = "0"                        # optional: the CPUs on that host (taskset list)
 * jdk = "copy"                      # optional (sut, stub): copy the JDK into the run's work folder there instead of
 *                                   # requiring it at the same path
 *
 * [pg]                              # pg and stub may run on a host too (their own folder, port and address there)
 * host = "root@10.77.0.12"
 *
 * [[load]]                          # one table per agent (or load = ["host1", "host2"])
 * host = "root@10.77.0.12"
 * </pre>
 */
public record Topology(HostSpec sut, HostSpec pg, HostSpec stub, List<HostSpec> load) {
    public static final String LOCAL = "local";
    public static final String SUT = "sut", PG = "pg", STUB = "stub", LOAD = "load";
    static final Set<String> ROLES = Set.of(SUT, PG, STUB, LOAD);
    static final Set<String> KEYS = Set.of("host", "identity", "known_hosts", "cpus", "jdk");
    /** jdk's values: the JDK at the same path on the host (the default), or copied there. */
    public static final String JDK_SAME_PATH = "same-path", JDK_COPY = "copy";
    /** The roles that run a JVM, so the only ones a jdk key means something for. */
    static final Set<String> JAVA_ROLES = Set.of(SUT, STUB);

    /** The entry of a role that runs one process (sut, pg, stub), by its name: a run tier's, by the tier's name. */
    public HostSpec of(String role) {
        return switch (role) {
            case SUT -> sut;
            case PG -> pg;
            case STUB -> stub;
            default -> throw new IllegalArgumentException("no topology entry for " + role + " (" + SUT + ", " + PG + ", " + STUB + ")");
        };
    }

    /** Every tier on this machine: the lab without --hosts. */
    public static Topology allLocal() {
        return new Topology(HostSpec.local(SUT), HostSpec.local(PG), HostSpec.local(STUB), List.of(HostSpec.local(LOAD)));
    }

    /** Whether anything runs off this machine. */
    public boolean remote() {
        return all().stream().anyMatch(h -> !h.isLocal());
    }

    /** Every entry: sut, pg, stub, then the load agents in file order. */
    public List<HostSpec> all() {
        List<HostSpec> all = new ArrayList<>(List.of(sut, pg, stub));
        all.addAll(load);
        return all;
    }

    /** Reads a topology file; a missing or unreadable file, or anything wrong in it, is a one-line refusal. */
    public static Topology read(Path file) throws UsageError {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException | RuntimeException e) {
            throw new UsageError("--hosts " + file + ": cannot read it (" + (e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.getMessage()) + ")");
        }
        Path base = file.toAbsolutePath().getParent();
        try {
            return parse(text, base);
        } catch (UsageError e) {
            throw new UsageError("--hosts " + file + ": " + e.getMessage());
        }
    }

    /** A topology file's text; relative identity and known_hosts paths are taken from base. */
    public static Topology parse(String text, Path base) throws UsageError {
        JsonNode root;
        try {
            root = new TomlMapper().readTree(text);
        } catch (JsonProcessingException e) {
            var at = e.getLocation();
            throw new UsageError("not valid TOML: " + e.getOriginalMessage().lines().findFirst().orElse("").strip()
                    + (at == null || at.getLineNr() < 1 ? "" : " (line " + at.getLineNr() + ")"));
        }
        if (root == null || !root.isObject()) throw new UsageError("no roles: it needs at least sut = \"local\" or a [sut] table");
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String role = it.next();
            if (!ROLES.contains(role)) throw new UsageError("unknown role '" + role + "' (sut, pg, stub, load)");
        }
        if (!root.has(SUT)) throw new UsageError("no sut: say where the system under test runs (sut = \"local\" or a [sut] table with host = ...)");
        HostSpec sut = entry(SUT, root.get(SUT), base);
        HostSpec pg = root.has(PG) ? entry(PG, root.get(PG), base) : HostSpec.local(PG);
        HostSpec stub = root.has(STUB) ? entry(STUB, root.get(STUB), base) : HostSpec.local(STUB);
        List<HostSpec> load = new ArrayList<>();
        JsonNode l = root.get(LOAD);
        if (l == null) load.add(HostSpec.local(LOAD));
        else if (l.isArray()) {
            if (l.isEmpty()) throw new UsageError("load = [] names no agent: leave it out for a local one");
            for (int i = 0; i < l.size(); i++) load.add(entry(LOAD + " agent " + (i + 1), l.get(i), base));
        } else load.add(entry(LOAD, l, base));
        return new Topology(sut, pg, stub, List.copyOf(load));
    }

    /** One role's entry: a string (its host) or a table. */
    private static HostSpec entry(String what, JsonNode n, Path base) throws UsageError {
        String role = what.startsWith(LOAD) ? LOAD : what;
        if (n.isTextual()) return spec(what, role, n.asText(), null, null, null, null, base);
        if (!n.isObject()) throw new UsageError(what + ": give a host (\"local\" or user@host) or a table with host = ...");
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
            var f = it.next();
            if (!KEYS.contains(f.getKey())) throw new UsageError(what + ": unknown key '" + f.getKey() + "' (host, identity, known_hosts, cpus, jdk)");
            if (!f.getValue().isTextual()) throw new UsageError(what + ": " + f.getKey() + " must be a string, e.g. " + f.getKey() + " = \"...\"");
        }
        if (!n.has("host")) throw new UsageError(what + " has no host: add host = \"local\" or host = \"user@host\"");
        return spec(what, role, n.get("host").asText(), text(n, "identity"), text(n, "known_hosts"), text(n, "cpus"), text(n, "jdk"), base);
    }

    private static String text(JsonNode n, String key) {
        return n.has(key) ? n.get(key).asText() : null;
    }

    private static HostSpec spec(String what, String role, String host, String identity, String knownHosts, String cpus, String jdk,
                                 Path base) throws UsageError {
        if (jdk != null && !jdk.equals(JDK_COPY) && !jdk.equals(JDK_SAME_PATH)) {
            throw new UsageError(what + ": jdk = \"" + jdk + "\": give \"copy\" (copy the JDK to the host) or \"same-path\" (installed there at the same path)");
        }
        boolean copy = JDK_COPY.equals(jdk);
        if (jdk != null && !JAVA_ROLES.contains(role)) throw new UsageError(what + " runs no JVM: jdk is for sut and stub");
        if (cpus != null) {
            try {
                CoreMap.parse(cpus, Integer.MAX_VALUE); // the syntax here; that host's CPU count when it is reached
            } catch (IllegalArgumentException e) {
                throw new UsageError(what + ": cpus " + e.getMessage());
            }
        }
        if (LOCAL.equals(host)) {
            if (identity != null || knownHosts != null || copy) throw new UsageError(what + " is local: identity, known_hosts and jdk = \"copy\" are for an SSH host");
            return new HostSpec(role, null, null, null, cpus);
        }
        Destination d;
        try {
            d = Destination.parse(host);
        } catch (UsageError e) {
            throw new UsageError(what + ": " + e.getMessage());
        }
        Path id = identity == null ? null : resolve(base, identity);
        if (id != null && !Files.isReadable(id)) throw new UsageError(what + ": identity " + id + " is not a readable file");
        return new HostSpec(role, d, id, knownHosts == null ? null : resolve(base, knownHosts), cpus, copy);
    }

    private static Path resolve(Path base, String p) {
        Path path = Path.of(p.startsWith("~/") ? System.getProperty("user.home") + p.substring(1) : p);
        return base == null ? path : base.resolve(path).normalize();
    }
}
