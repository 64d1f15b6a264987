package vtlab.experiment.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.data.Dataset;

class ThreadMemoryStudyTest {
    @TempDir
    Path dir;

    static Map<String, Object> row(String mode, int threads, long reservedKb, long committedKb) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("mode", mode);
        r.put("threads", threads);
        r.put("nmt_thread_reserved_kb", reservedKb);
        r.put("nmt_thread_committed_kb", committedKb);
        r.put("rss_mb", 100.5);
        r.put("heap_used_mb", 7.0);
        r.put("reserved_kb_per_thread", (double) reservedKb / threads);
        r.put("committed_kb_per_thread", (double) committedKb / threads);
        r.put("jdk", 25);
        r.put("os_threads", mode.equals("platform") ? threads + 14 : 16);
        r.put("thread_stack_size_kb", 1024);
        return r;
    }

    @Test
    void csvKeepsTheColumnsTheChartsReadAndFindingsCompareTheLargestCount() throws Exception {
        Path file = dir.resolve(ThreadMemoryStudy.FILE);
        StudyCsv csv = new StudyCsv(file, ThreadMemoryStudy.COLUMNS);
        csv.append(row("platform", 1000, 1_041_131, 62_299));
        csv.append(row("virtual", 1000, 15_412, 1_088));
        csv.append(row("platform", 10000, 10_291_094, 357_886));
        csv.append(row("virtual", 10000, 15_412, 1_084));

        List<Map<String, String>> rows = Dataset.read(file);
        assertEquals(4, rows.size());
        assertEquals(List.of("mode", "threads", "nmt_thread_reserved_kb", "nmt_thread_committed_kb", "rss_mb", "heap_used_mb",
                "reserved_kb_per_thread", "committed_kb_per_thread"), ThreadMemoryStudy.COLUMNS.subList(0, 8));
        assertEquals("1029.109", rows.get(2).get("reserved_kb_per_thread"));

        List<String> f = ThreadMemoryStudy.findingsFrom(file);
        String platform = f.stream().filter(s -> s.startsWith("at 10,000 platform")).findFirst().orElseThrow();
        assertTrue(platform.contains("9.81 GiB") && platform.contains("1.00x 10,000 x the 1,024 KiB"), platform);
        assertTrue(platform.contains("committed only 349.5 MiB"), platform);
        String virtual = f.stream().filter(s -> s.startsWith("at 10,000 virtual")).findFirst().orElseThrow();
        assertTrue(virtual.contains("0.15% of platform's") && virtual.contains("under 1%, as claimed"), virtual);
    }

    @Test
    void saysSoWhenVirtualIsNotUnderOnePercent() throws Exception {
        Path file = dir.resolve(ThreadMemoryStudy.FILE);
        StudyCsv csv = new StudyCsv(file, ThreadMemoryStudy.COLUMNS);
        csv.append(row("platform", 100, 100_000, 5_000));
        csv.append(row("virtual", 100, 20_000, 1_000));
        String virtual = ThreadMemoryStudy.findingsFrom(file).stream().filter(s -> s.startsWith("at 100 virtual")).findFirst().orElseThrow();
        assertTrue(virtual.contains("NOT under 1%"), virtual);
    }
}
