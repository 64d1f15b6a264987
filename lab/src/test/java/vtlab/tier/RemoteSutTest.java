package vtlab.tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Map;

import org.junit.jupiter.api.Test;

import vtlab.proc.Env;

/** The SUT on a host of its own: what it is told to listen on (its jar and JDK there: tier.host.RemoteJavaTest). */
class RemoteSutTest {
    /** It listens on the host's address (the lab and the agents reach it there), and is told no parent pid of this machine. */
    @Test
    void itIsToldItsPortAndTheHostsAddressButNoParentPid() {
        Env env = RemoteSut.environment(Env.NONE.with("THREAD_MODE", "platform"), "10.77.0.11", 18080);
        assertEquals(Map.of("THREAD_MODE", "platform", "PORT", "18080", "SERVER_PORT", "18080", "ADDRESS", "10.77.0.11",
                "SERVER_ADDRESS", "10.77.0.11"), env.asMap());
        assertFalse(env.names().contains("VTLAB_PARENT_PID"));
    }
}
