package vtlab.proc;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** A port free on 127.0.0.1 (or an address of this machine) right now, for a tier the lab starts (the stub, PostgreSQL, the fault proxy). */
public final class LoopbackPort {
    private LoopbackPort() {}

    public static int free() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** A port free on this machine's address right now (a tier here that a SUT on another host reaches at it). */
    public static int free(String address) throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(address))) {
            return s.getLocalPort();
        }
    }
}
