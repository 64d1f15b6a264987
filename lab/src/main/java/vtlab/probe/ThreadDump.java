package vtlab.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import vtlab.tier.tool.Jdk;
import vtlab.tier.host.Site;
import vtlab.tier.host.TierProcess;

/**
 * A JSON thread dump (jcmd Thread.dump_to_file -format=json, JDK 21+), which unlike jstack lists virtual threads,
 * and its summary: how many threads, how many virtual, by state, the most common stacks.
 */
public final class ThreadDump {
    /** The field jcmd Thread.dump_to_file (JDK 25 on) sets true on a virtual thread: the JDK's format, not a mode's name. */
    public static final String VIRTUAL_FIELD = "virtual";

    private static final ObjectMapper JSON = new ObjectMapper();

    private ThreadDump() {}

    public record Summary(int threads, int virtual, Map<String, Integer> virtualByState, List<Map.Entry<String, Integer>> topStacks) {
        public String render(int stacks) {
            StringBuilder sb = new StringBuilder();
            sb.append(threads).append(" threads, ").append(virtual).append(" virtual\n");
            sb.append("virtual threads by state: ").append(virtualByState).append('\n');
            int i = 0;
            for (var e : topStacks) {
                if (i++ == stacks) break;
                sb.append(String.format("%6d x %s%n", e.getValue(), e.getKey().replace("\n", "\n           ")));
            }
            return sb.toString();
        }
    }

    /** A dump of a JVM of this machine by its pid. */
    public static Path take(Jdk jdk, long pid, Path file) throws IOException, InterruptedException {
        return take(Site.here(), jdk, pid, file);
    }

    /** A dump of the JVM where it runs (across hosts: written on its host, copied back into file). */
    public static Path take(TierProcess jvm, Jdk jdk, Path file) throws IOException, InterruptedException {
        return take(jvm.site(), jdk, jvm.pid(), file);
    }

    private static Path take(Site site, Jdk jdk, long pid, Path file) throws IOException, InterruptedException {
        Files.deleteIfExists(file); // jcmd refuses to overwrite (on a host, a fetched file is removed there)
        site.jcmd(jdk, pid, List.of("Thread.dump_to_file", "-format=json", site.path(file)));
        site.fetch(file);
        return file;
    }

    /** Summarises a dump; a stack is shortened to its top frames so threads blocked at the same place group. */
    public static Summary summarize(String json, int frames) throws IOException {
        JsonNode root = JSON.readTree(json).path("threadDump");
        int threads = 0, virtual = 0;
        Map<String, Integer> byState = new TreeMap<>();
        Map<String, Integer> stacks = new LinkedHashMap<>();
        for (JsonNode container : root.path("threadContainers")) {
            for (JsonNode t : container.path("threads")) {
                threads++;
                List<String> stack = new ArrayList<>();
                t.path("stack").forEach(f -> stack.add(f.asText()));
                // JDK 25 marks virtual threads; JDK 21's format does not, but their stacks run on VirtualThread
                boolean isVirtual = t.path(VIRTUAL_FIELD).asBoolean(false) || stack.stream().anyMatch(f -> f.contains("java.lang.VirtualThread."));
                if (!isVirtual) continue;
                virtual++;
                byState.merge(t.path("state").asText("UNKNOWN"), 1, Integer::sum);
                String key = String.join("\n", stack.subList(0, Math.min(frames, stack.size())));
                stacks.merge(key.isEmpty() ? "(no frames: not mounted or not started)" : key, 1, Integer::sum);
            }
        }
        List<Map.Entry<String, Integer>> top = new ArrayList<>(stacks.entrySet());
        top.sort((a, b) -> b.getValue() - a.getValue());
        return new Summary(threads, virtual, byState, top);
    }
}
