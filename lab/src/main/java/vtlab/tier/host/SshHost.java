package vtlab.tier.host;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import vtlab.proc.Commands;

/**
 * A host reached with the user's own ssh and scp (their config, agent and keys apply): never a password prompt
 * (BatchMode), a host seen for the first time is accepted and remembered, a changed host key refused
 * (StrictHostKeyChecking=accept-new), an unreachable host given up after 10 s, and a session whose host stops
 * answering given up after about {@link #SILENT_MAX}: ssh asks every {@link #ALIVE_INTERVAL_S} s of silence and ends
 * (exit 255, "Timeout, server ... not responding.") when {@link #ALIVE_COUNT} asks in a row go unanswered, so no
 * client of a lost host hangs on until TCP gives up (hours).
 */
public final class SshHost implements Host {
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");
    static final int CONNECT_S = 10, ALIVE_INTERVAL_S = 2, ALIVE_COUNT = 3;
    /** How long a session's host may stay silent before ssh gives the session up: the asks, and the last one's wait. */
    public static final Duration SILENT_MAX = Duration.ofSeconds((long) ALIVE_INTERVAL_S * (ALIVE_COUNT + 1));
    /** A reachability check's connect: shorter than a command's (a host that was just lost rarely needs 10 s). */
    static final int CHECK_CONNECT_S = 5;
    private final HostSpec spec;

    public SshHost(HostSpec spec) {
        if (spec.isLocal()) throw new IllegalArgumentException(spec.role() + " is local");
        this.spec = spec;
    }

    @Override
    public String name() {
        return spec.where();
    }

    @Override
    public boolean local() {
        return false;
    }

    /** The options ssh and scp share; port and the command differ between them. */
    private List<String> options() {
        return options(CONNECT_S);
    }

    private List<String> options(int connectS) {
        return options(connectS, SshMux.options(muxKey(), target()));
    }

    private List<String> options(int connectS, List<String> mux) {
        List<String> o = new ArrayList<>(List.of("-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=accept-new", "-o", "ConnectTimeout=" + connectS,
                "-o", "ServerAliveInterval=" + ALIVE_INTERVAL_S, "-o", "ServerAliveCountMax=" + ALIVE_COUNT));
        o.addAll(mux);
        if (spec.knownHosts() != null) o.addAll(List.of("-o", "UserKnownHostsFile=" + spec.knownHosts()));
        if (spec.identity() != null) o.addAll(List.of("-i", spec.identity().toString()));
        return o;
    }

    /** [-p PORT] user@host: where a command goes (what ssh -O exit names its master by, with the socket). */
    private List<String> target() {
        List<String> t = new ArrayList<>();
        if (spec.destination().port() != Destination.DEFAULT_PORT) t.addAll(List.of("-p", Integer.toString(spec.destination().port())));
        t.add(spec.destination().sshTarget());
        return t;
    }

    /** What one connection may serve: the same destination, reached with the same key and known hosts. */
    private String muxKey() {
        return spec.destination().sshTarget() + "|" + spec.destination().port() + "|" + spec.identity() + "|" + spec.knownHosts();
    }

    /** Ends this host's shared connection, if one is open (the end of a run across hosts). */
    @Override
    public void closeConnection() throws InterruptedException {
        SshMux.close(muxKey());
    }

    /** ssh OPTIONS [-p PORT] user@host -- 'quoted' 'argv': the remote shell gets back exactly cmd's words. */
    @Override
    public List<String> command(List<String> cmd) {
        return command(cmd, CONNECT_S);
    }

    List<String> command(List<String> cmd, int connectS) {
        return command(cmd, options(connectS));
    }

    private List<String> command(List<String> cmd, List<String> options) {
        List<String> c = new ArrayList<>(List.of("ssh"));
        c.addAll(options);
        c.addAll(target());
        c.add("--");
        c.add(String.join(" ", cmd.stream().map(SshHost::quote).toList()));
        return c;
    }

    /**
     * A new session's answer to `true` within {@link #CHECK_CONNECT_S} s to connect (15 s in all): null when it
     * comes, else ssh's own first line (e.g. "ssh: connect to host 10.77.0.13 port 22: No route to host").
     */
    @Override
    public String unreachable() throws InterruptedException {
        try {
            // a connection of its own: a shared one to a host just lost would answer for it until ssh gives it up
            Commands.Result r = Commands.attempt(command(List.of("true"), options(CHECK_CONNECT_S, SshMux.bypass())), Duration.ofSeconds(15));
            if (r.code() != 255) return null; // ssh got through: whatever true said, the host answers
            return r.output().strip().lines().filter(l -> !l.isBlank()).findFirst().orElse("ssh failed (255)");
        } catch (IOException e) {
            return e.getMessage().contains("did not finish") ? "no answer in 15 s" : e.getMessage();
        }
    }

    /** scp OPTIONS [-P PORT] -q FROM TO, one side "user@host:path". */
    List<String> scp(String from, String to) {
        List<String> c = new ArrayList<>(List.of("scp", "-q"));
        c.addAll(options());
        if (spec.destination().port() != Destination.DEFAULT_PORT) c.addAll(List.of("-P", Integer.toString(spec.destination().port())));
        c.add(from);
        c.add(to);
        return c;
    }

    String remote(String path) {
        return spec.destination().scpTarget() + ":" + path;
    }

    @Override
    public void copyTo(Path file, String path, Duration timeout) throws IOException, InterruptedException {
        copy(scp(file.toString(), remote(path)), timeout);
    }

    @Override
    public void copyFrom(String path, Path file, Duration timeout) throws IOException, InterruptedException {
        copy(scp(remote(path), file.toString()), timeout);
    }

    private void copy(List<String> cmd, Duration timeout) throws IOException, InterruptedException {
        Commands.Result r = Commands.attempt(cmd, timeout);
        if (!r.ok()) throw new IOException(name() + ": " + cmd.get(cmd.size() - 2) + " -> " + cmd.getLast() + " failed (" + r.code() + "): " + r.output().strip());
    }

    /** A word as a POSIX shell reads it back unchanged: as it is when plain, else in single quotes. */
    static String quote(String word) {
        if (PLAIN.matcher(word).matches()) return word;
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
