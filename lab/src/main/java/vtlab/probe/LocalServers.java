package vtlab.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The processes on this machine that serve the SUT: those listening on a port it holds an established connection to
 * (a database, a stub, a cache the user started beside it, the lab's `./vtlab tiers`). Their CPU is the system's under
 * test, not a neighbour's: found from /proc (the SUT's socket inodes, the TCP tables, every process's descriptors).
 */
final class LocalServers {
    private LocalServers() {}

    /** The pids of the local processes listening where the SUT is connected; empty when none or unreadable. */
    static Set<Long> of(long sutPid) {
        try {
            String tables = tcpTables(sutPid);
            Set<Integer> ports = remotePorts(tables, socketInodes(sutPid));
            Set<String> listening = ports.isEmpty() ? Set.of() : listeningInodes(tables, ports);
            if (listening.isEmpty()) return Set.of();
            Set<Long> out = new HashSet<>();
            try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
                for (Path p : procs.filter(d -> d.getFileName().toString().matches("\\d+")).toList()) {
                    long pid = Long.parseLong(p.getFileName().toString());
                    if (pid != sutPid && !Collections.disjoint(socketInodes(pid), listening)) out.add(pid);
                }
            }
            return out;
        } catch (IOException | RuntimeException e) {
            return Set.of();
        }
    }

    /** The socket inodes among a process's descriptors ("socket:[12345]"); empty when they cannot be read. */
    static Set<String> socketInodes(long pid) {
        Set<String> inodes = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            fds.forEach(fd -> {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) inodes.add(target.substring(8, target.length() - 1));
                } catch (IOException | RuntimeException e) {
                    // closed between the listing and the read
                }
            });
        } catch (IOException | RuntimeException e) {
            // gone, or another user's
        }
        return inodes;
    }

    /** The TCP tables (tcp and tcp6) of a process's network namespace, one after the other. */
    static String tcpTables(long pid) throws IOException {
        StringBuilder tables = new StringBuilder();
        for (String t : java.util.List.of("tcp", "tcp6")) {
            Path f = Path.of("/proc", Long.toString(pid), "net", t);
            if (Files.exists(f)) tables.append(Files.readString(f)).append('\n');
        }
        return tables.toString();
    }

    /** Remote ports of the established connections (state 01) among these socket inodes. */
    static Set<Integer> remotePorts(String procNetTcp, Set<String> inodes) {
        Set<Integer> out = new HashSet<>();
        for (String line : procNetTcp.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 10 || !f[0].endsWith(":") || !f[3].equals("01") || !inodes.contains(f[9])) continue;
            out.add(Integer.parseInt(f[2].substring(f[2].indexOf(':') + 1), 16));
        }
        return out;
    }

    /** Inodes of the listening sockets (state 0A) on these local ports. */
    static Set<String> listeningInodes(String procNetTcp, Set<Integer> ports) {
        Set<String> out = new HashSet<>();
        for (String line : procNetTcp.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 10 || !f[0].endsWith(":") || !f[3].equals("0A")) continue;
            if (ports.contains(Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1), 16))) out.add(f[9]);
        }
        return out;
    }
}
