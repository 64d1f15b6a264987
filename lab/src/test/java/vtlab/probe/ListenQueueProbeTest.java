package vtlab.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The listen probe reads the kernel's count of handshakes a full accept queue dropped. */
class ListenQueueProbeTest {

    @Test
    void readsListenOverflowsFromTheTcpExtPair() {
        String netstat = "TcpExt: SyncookiesSent SyncookiesRecv ListenOverflows ListenDrops\n"
                + "TcpExt: 0 0 238420 238420\n"
                + "IpExt: InNoRoutes ListenOverflows\n"
                + "IpExt: 0 7\n";
        assertEquals(238420L, ListenQueueProbe.overflows(netstat));
        assertNull(ListenQueueProbe.overflows("IpExt: InNoRoutes\nIpExt: 0\n"));
    }

    /**
     * The positive control: a socket that listens with a backlog of 1 and never accepts; 20 connections to it overflow
     * its queue, and this namespace's counter (what the probe reads through the SUT's /proc) moves.
     */
    @Test
    void aListenerThatNeverAcceptsMovesTheCounter() throws Exception {
        Path netstat = Path.of("/proc/self/net/netstat");
        Long before = ListenQueueProbe.overflows(Files.readString(netstat));
        assertNotNull(before, "this kernel reports TcpExt ListenOverflows");
        List<SocketChannel> clients = new ArrayList<>();
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            for (int i = 0; i < 20; i++) {
                SocketChannel c = SocketChannel.open();
                c.configureBlocking(false);
                c.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()));
                clients.add(c);
            }
            long after = before;
            for (int i = 0; i < 50 && after == before; i++) {
                Thread.sleep(20);
                after = ListenQueueProbe.overflows(Files.readString(netstat));
            }
            assertTrue(after > before, "20 handshakes against a backlog of 1 overflowed none: " + before + " -> " + after);
        } finally {
            for (SocketChannel c : clients) c.close();
        }
    }
}
