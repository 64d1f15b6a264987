package vtlab.tier;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** A port free on 127.0.0.1 right now, for a tier the lab starts (the stub, PostgreSQL, the fault proxy). */
public final class LoopbackPort {
    private LoopbackPort() {}

    public static int free() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
