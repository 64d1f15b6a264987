package vtlab.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

class CpuByThreadProbeTest {
    /** Header lines as jcmd Thread.print prints them on JDK 25 (Java threads carry "#n [tid]", VM threads do not). */
    static final String PRINT = """
            2026-11-21 12:20:01
            Full thread dump OpenJDK 64-Bit Server VM (25.0.3+9-LTS mixed mode, sharing):

            "main" #3 [4182] prio=5 os_prio=0 cpu=6675.61ms elapsed=33.12s tid=0x00007f0bac02b170 nid=4182 waiting on condition  [0x00007f0bb39fd000]
               java.lang.Thread.State: WAITING (parking)
            "C2 CompilerThread0" #17 [4196] daemon prio=9 os_prio=0 cpu=8301.20ms elapsed=33.09s tid=0x00007f0bac0bd360 nid=4196 waiting on condition  [0x0000000000000000]
            "http-nio-127.0.0.1-18080-Poller" #40 [4300] daemon prio=5 os_prio=0 cpu=900.00ms elapsed=30.00s tid=0x00007f0bad000000 nid=4300 runnable  [0x00007f0bb0000000]
            "http-exec-12" #52 [4312] daemon prio=5 os_prio=0 cpu=90.00ms elapsed=30.00s tid=0x00007f0bad000100 nid=4312 waiting on condition  [0x00007f0bb0000100]
            "ForkJoinPool-1-worker-1" #60 [4320] daemon prio=5 os_prio=0 cpu=2000.00ms elapsed=30.00s tid=0x00007f0bad000200 nid=0x10e0 waiting on condition  [0x00007f0bb0000200]
            "VM Thread" os_prio=0 cpu=27.73ms elapsed=35.07s tid=0x00007f0bac0a8960 nid=4190 runnable
            "G1 Service" os_prio=0 cpu=20.15ms elapsed=35.08s tid=0x00007f0bac08a130 nid=4187 runnable
            """;

    @Test
    void namesEveryThreadByItsOsIdFromAThreadPrint() {
        Map<Long, String> names = CpuByThreadProbe.names(PRINT);
        assertEquals("main", names.get(4182L));
        assertEquals("http-nio-127.0.0.1-18080-Poller", names.get(4300L));
        assertEquals("ForkJoinPool-1-worker-1", names.get(0x10e0L), "older JDKs print nid in hex");
        assertEquals("VM Thread", names.get(4190L));
        assertEquals(7, names.size());
    }

    @Test
    void groupsTheThreadsOfTomcatNettyAndHotSpot() {
        assertEquals("connector", CpuByThreadProbe.group("http-nio-127.0.0.1-18080-Poller"));
        assertEquals("connector", CpuByThreadProbe.group("http-nio-18080-Acceptor"));
        assertEquals("requests", CpuByThreadProbe.group("http-nio-18080-exec-7"), "Spring's Tomcat pool");
        assertEquals("requests", CpuByThreadProbe.group("http-exec-12"), "the servlet SUT's pool");
        assertEquals("requests", CpuByThreadProbe.group("ForkJoinPool-1-worker-1"), "virtual-thread carriers");
        assertEquals("jetty-pool", CpuByThreadProbe.group("jetty-qtp-41"), "the jetty stack's queued pool: selectors, and platform requests");
        assertEquals("connector", CpuByThreadProbe.group("jetty-qtp-24-acceptor-0@75c8f372-oejs.ServerConnector@7b0f13bb{HTTP/1.1, (http/1.1)}{127.0.0.1:18394}"));
        assertEquals("connector", CpuByThreadProbe.group("server-@default-listener"), "Helidon's acceptor");
        assertEquals("requests", CpuByThreadProbe.group("reactor-http-epoll-1"));
        assertEquals("jit", CpuByThreadProbe.group("C2 CompilerThread0"));
        assertEquals("gc-vm", CpuByThreadProbe.group("GC Thread#0"));
        assertEquals("gc-vm", CpuByThreadProbe.group("VM Thread"));
        assertEquals("jfr", CpuByThreadProbe.group("JFR Recorder Thread"));
        assertEquals("other", CpuByThreadProbe.group("Attach Listener"));
    }

    @Test
    void rendersPercentOfOneCoreLargestFirst() {
        Map<String, Long> ticks = new LinkedHashMap<>();
        ticks.put("jit", 20L);
        ticks.put("requests", 1500L);
        ticks.put("connector", 380L);
        // 20 s of hold at 100 ticks/s = 2,000 ticks per core
        String rendered = CpuByThreadProbe.render(ticks, 20);
        assertEquals("requests 75.0;connector 19.0;jit 1.0", rendered);
        assertEquals(19.0, vtlab.data.Rows.cpuGroupPct(rendered, "connector"), "read back as written");
        assertEquals(0.0, vtlab.data.Rows.cpuGroupPct(rendered, "jfr"), "a group that used nothing is absent");
    }

    @Test
    void readsThisJvmsOwnThreadsFromProc() {
        Map<Long, Proc.ThreadTicks> ticks = Proc.threadTicks(ProcessHandle.current().pid());
        assertTrue(ticks.size() >= Thread.getAllStackTraces().size() / 2, ticks.toString());
        assertTrue(ticks.values().stream().mapToLong(Proc.ThreadTicks::ticks).sum() > 0, "a JVM that ran tests used CPU");
        assertTrue(ticks.values().stream().anyMatch(t -> t.name().startsWith("C1 CompilerThre") || t.name().startsWith("C2 CompilerThre")),
                "the /proc names come with the ticks (the JIT's threads are found by them): " + ticks.values());
    }
}
