package vtlab.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Socket;
import java.util.Set;

import org.junit.jupiter.api.Test;

class LocalServersTest {
    /** A /proc/net/tcp with a listener on 5432 (0x1538), one established connection to it and one from a client. */
    static final String TCP = """
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 0100007F:1538 00000000:0000 0A 00000000:00000000 00:00000000 00000000   105        0 1111 1 0
               1: 0100007F:A1B2 0100007F:1538 01 00000000:00000000 00:00000000 00000000     0        0 2222 1 0
               2: 0100007F:1F90 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 3333 1 0
            """;

    @Test
    void theServersAreTheListenersOnThePortsTheSutIsConnectedTo() {
        assertEquals(Set.of(5432, 50000), LocalServers.remotePorts(TCP, Set.of("2222", "3333")));
        assertEquals(Set.of(5432), LocalServers.remotePorts(TCP, Set.of("2222")), "only the SUT's own sockets");
        assertEquals(Set.of("1111"), LocalServers.listeningInodes(TCP, Set.of(5432, 50000)));
    }

    /** A real listener in a process of its own, and this JVM connected to it as a SUT would be to its database. */
    @Test
    void aProcessThisOneIsConnectedToIsFound() throws Exception {
        Process server = new ProcessBuilder("python3", "-c", """
                import socket, sys, time
                s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
                print(s.getsockname()[1], flush=True)
                c, _ = s.accept(); time.sleep(30)
                """).start();
        try {
            int port = Integer.parseInt(new java.io.BufferedReader(new java.io.InputStreamReader(server.getInputStream())).readLine().trim());
            try (Socket s = new Socket("127.0.0.1", port)) {
                Set<Long> found = LocalServers.of(ProcessHandle.current().pid());
                assertTrue(found.contains(server.pid()), "the listener " + server.pid() + " among " + found);
            }
        } finally {
            server.destroyForcibly().waitFor();
        }
    }
}
