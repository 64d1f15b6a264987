package vtlab.experiment.ab;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import vtlab.check.JarLibraries;
import vtlab.check.JarLibraries.Library;

/**
 * The libraries in the service's jar, read once before the run and kept in kept.json (under "ab"), so the
 * verdict checks the jar that ran even when it has been rebuilt or removed since (./vtlab report reads it back). The
 * check against the lab's table is the verdict's ({@link Verdict}), at findings time: a later lab knows more.
 *
 * @param jar       the jar as run (absolute)
 * @param libraries what it holds, in its order (empty when it could not be read)
 * @param error     why it could not be read, or null
 */
record ServiceLibraries(String jar, List<Library> libraries, String error) {
    /** Scans the jar; a jar that cannot be read is said so, not a refusal (the run does not need it). */
    static ServiceLibraries scan(Path jar) {
        try {
            return new ServiceLibraries(jar.toString(), JarLibraries.of(jar), null);
        } catch (IOException | RuntimeException e) {
            return new ServiceLibraries(jar.toString(), List.of(), e.toString());
        }
    }

    /** As kept.json keeps it. */
    Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("jar", jar);
        if (error != null) m.put("libraries_error", error);
        List<Map<String, String>> libs = new ArrayList<>();
        for (Library l : libraries) {
            Map<String, String> e = new LinkedHashMap<>();
            if (l.group() != null) e.put("group", l.group());
            e.put("artifact", l.artifact());
            e.put("version", l.version());
            e.put("where", l.where());
            if (l.module() != null) e.put("module", l.module());
            libs.add(e);
        }
        m.put("libraries", libs);
        return m;
    }

    /** From ab's entry of kept.json ({@link AbKept}); null when the run kept none (a --cmd service, a run before this check). */
    static ServiceLibraries kept(JsonNode ab) {
        if (!ab.has("jar")) return null;
        List<Library> libs = new ArrayList<>();
        for (JsonNode l : ab.path("libraries")) {
            libs.add(new Library(text(l, "group"), l.path("artifact").asText(), l.path("version").asText(), l.path("where").asText(),
                    text(l, "module")));
        }
        return new ServiceLibraries(ab.get("jar").asText(), List.copyOf(libs), text(ab, "libraries_error"));
    }

    private static String text(JsonNode n, String field) {
        return n.hasNonNull(field) ? n.get(field).asText() : null;
    }
}
