package vtlab.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** GC.heap_info as JDK 25's jcmd printed it for each collector (a 256 MB heap, before and after jcmd GC.run). */
class LiveSetProbeTest {
    static final String SERIAL = """
            12345:
            DefNew     total 78656K, used 48525K [0x00000000f0000000, 0x00000000f5550000, 0x00000000f5550000)
             eden space 69952K,  69% used [0x00000000f0000000, 0x00000000f2f63720, 0x00000000f4450000)
             from space 8704K,   0% used [0x00000000f4450000, 0x00000000f4450000, 0x00000000f4cd0000)
             to   space 8704K,   0% used [0x00000000f4cd0000, 0x00000000f4cd0000, 0x00000000f5550000)
            Tenured    total 174784K, used 1166K [0x00000000f5550000, 0x0000000100000000, 0x0000000100000000)
             the  space 174784K,   0% used [0x00000000f5550000, 0x00000000f5673ab8, 0x0000000100000000)
            """;
    static final String G1 = """
            12345:
            garbage-first heap   total reserved 262144K, committed 150528K, used 43913K [0x00000000f0000000, 0x0000000100000000)
             region size 1024K, 0 young (0K), 0 survivors (0K)
            """;
    static final String PARALLEL = """
            12345:
            PSYoungGen      total 76288K, used 48105K [0x00000000fab00000, 0x0000000100000000, 0x0000000100000000)
             eden space 65536K, 73% used [0x00000000fab00000,0x00000000fd9fa7c8,0x00000000feb00000)
            ParOldGen       total 175104K, used 1166K [0x00000000f0000000, 0x00000000fab00000, 0x00000000fab00000)
             object space 175104K, 0% used [0x00000000f0000000,0x00000000f0123ab8,0x00000000fab00000)
            """;
    static final String ZGC = """
            12345:
            ZHeap            used 44M, capacity 256M, max capacity 256M
             Cache           212M (3)
            """;

    @Test
    void eachCollectorsHeapInUseAndGrownTo() {
        LiveSetProbe.Heap s = LiveSetProbe.parse(SERIAL);
        assertEquals("Serial", s.collector());
        assertEquals((48525 + 1166) / 1024.0, s.usedMb(), 1e-9, "every generation's use, not its spaces'");
        assertEquals((78656 + 174784) / 1024.0, s.committedMb(), 1e-9);
        LiveSetProbe.Heap g = LiveSetProbe.parse(G1);
        assertEquals("G1", g.collector());
        assertEquals(43913 / 1024.0, g.usedMb(), 1e-9);
        assertEquals(150528 / 1024.0, g.committedMb(), 1e-9, "committed, not reserved");
        LiveSetProbe.Heap p = LiveSetProbe.parse(PARALLEL);
        assertEquals("Parallel", p.collector());
        assertEquals((48105 + 1166) / 1024.0, p.usedMb(), 1e-9);
        LiveSetProbe.Heap z = LiveSetProbe.parse(ZGC);
        assertEquals("ZGC", z.collector());
        assertEquals(44.0, z.usedMb());
        assertEquals(256.0, z.committedMb());
        assertNull(LiveSetProbe.parse("12345:\nShenandoah Heap\n 4096M max, 256M soft max, 256M committed, 12M used\n"), "a text it does not know: no figure");
    }

    @Test
    void theLiveSetInWords() {
        assertEquals("88 MB live after a full collection (Serial: 614 MB in use before it, grown to 1,531 MB)", LiveSetProbe.words(88, 614, 1531, "Serial"));
    }
}
