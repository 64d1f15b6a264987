package vtlab.tier.host;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import vtlab.core.UsageError;

/**
 * Where ssh reaches a host: [user@]host[:port], the host a name (or an alias of the user's ~/.ssh/config), an IPv4
 * address or a bracketed IPv6 address. Parsed strictly so a typo is refused before anything starts, not found as an
 * ssh error in the middle of a run.
 */
public record Destination(String user, String host, int port) {
    /** No port given: ssh's own (22, or the user's ssh config for that host). */
    public static final int DEFAULT_PORT = 0;

    private static final Pattern FORM = Pattern.compile(
            "(?:([A-Za-z0-9._][A-Za-z0-9._-]*)@)?([A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\\[[0-9A-Fa-f:.]+])(?::(\\d{1,5}))?");

    public static Destination parse(String text) throws UsageError {
        Matcher m = text == null ? null : FORM.matcher(text);
        if (m == null || !m.matches()) {
            throw new UsageError("'" + text + "' is not an SSH destination like user@host, user@host:2222 or host (nor 'local')");
        }
        int port = DEFAULT_PORT;
        if (m.group(3) != null) {
            port = Integer.parseInt(m.group(3));
            if (port < 1 || port > 65535) throw new UsageError("'" + text + "': port " + port + " is not between 1 and 65535");
        }
        String host = m.group(2);
        if (host.startsWith("[")) host = host.substring(1, host.length() - 1);
        return new Destination(m.group(1), host, port);
    }

    /** user@host as ssh takes it (the port goes in -p). */
    public String sshTarget() {
        return user == null ? host : user + "@" + host;
    }

    /** user@host: as scp's remote side takes it, an IPv6 address in brackets. */
    public String scpTarget() {
        String h = host.contains(":") ? "[" + host + "]" : host;
        return user == null ? h : user + "@" + h;
    }

    @Override
    public String toString() {
        return scpTarget() + (port == DEFAULT_PORT ? "" : ":" + port);
    }
}
