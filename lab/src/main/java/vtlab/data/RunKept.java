package vtlab.data;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import vtlab.tier.tool.Jdk;

/**
 * kept.json: what the lab keeps of a run for its own later decisions, read back after the run and on ./vtlab report
 * alike: each experiment's entry (what its findings need that no row records), the exact version of each JDK the rows
 * ran on, and how the run ended, as the report's verdicts state it. environment.json describes the machine, the
 * tools and the run for people and tools; the lab decides nothing from it, so its shape can serve readers freely.
 * The runner writes this file as the run starts and again as it ends; this class is its one writer and reader.
 *
 * @param experiments each experiment's entry ({@code Experiment.kept}), by the experiment's name
 * @param jdks        the exact version (25.0.3) of each JDK major the rows ran on
 * @param status      how the run ended
 */
public record RunKept(Map<String, JsonNode> experiments, Map<Integer, String> jdks, Status status) {
    /** A folder that kept nothing (or whose file does not read): no entry, no JDK, no status. */
    public static final RunKept NONE = new RunKept(Map.of(), Map.of(), Status.UNKNOWN);

    // a NaN left unquoted (a floor's, a share's) costs no entry, as with the readers this one replaced
    private static final ObjectMapper JSON = JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(SerializationFeature.INDENT_OUTPUT).build();
    /** The file's keys; an older folder's environment.json has the first three at its top as well. */
    private static final String KEY_STATUS = "status", KEY_STOPPED = "stopped", KEY_ROWS_NOT_RUN = "rows_not_run", KEY_FAILED = "failed",
            KEY_JDKS = "jdks", KEY_EXPERIMENTS = "experiments";
    /** environment.json's prefix of a failed study's line, in a folder written before kept.json. */
    private static final String OLD_FAILED = "failed_";

    public RunKept {
        experiments = Collections.unmodifiableMap(new LinkedHashMap<>(experiments));
        jdks = Collections.unmodifiableMap(new TreeMap<>(jdks));
    }

    /**
     * How the run ended: its state (one of the constants here; empty when the folder kept none), why it stopped
     * early (a host lost) and how many rows it left not run, and each study that failed, by name, with why.
     */
    public record Status(String state, String stopped, int rowsNotRun, Map<String, String> failed) {
        public static final String RUNNING = "running", COMPLETE = "complete", COMPLETE_WITH_FAILURES = "complete-with-failures",
                STOPPED = "stopped", INCOMPLETE = "incomplete";
        static final Status UNKNOWN = new Status("", null, 0, Map.of());
        public static final Status STARTED = new Status(RUNNING, null, 0, Map.of());

        public Status {
            failed = Collections.unmodifiableMap(new LinkedHashMap<>(failed));
        }

        /** Whether the run did not end by itself (interrupted, or cut off before it could say). */
        public boolean unfinished() {
            return state.equals(RUNNING) || state.equals(INCOMPLETE);
        }

        public Status ended(String state) {
            return new Status(state, stopped, rowsNotRun, failed);
        }

        public Status stoppedEarly(String why, int notRun) {
            return new Status(state, why, notRun, failed);
        }

        public Status studyFailed(String study, String why) {
            Map<String, String> all = new LinkedHashMap<>(failed);
            all.put(study, why);
            return new Status(state, stopped, rowsNotRun, all);
        }
    }

    /** As the run starts: the experiments' entries and the rows' JDKs (a JDK whose version is not known is left out). */
    public static RunKept planned(Map<String, Map<String, Object>> experiments, Collection<Jdk> jdks) {
        Map<String, JsonNode> entries = new LinkedHashMap<>();
        experiments.forEach((name, entry) -> entries.put(name, JSON.valueToTree(entry)));
        Map<Integer, String> versions = new TreeMap<>();
        for (Jdk j : jdks) {
            if (j.major() > 0 && j.version() != null && !j.version().isBlank()) versions.putIfAbsent(j.major(), j.version());
        }
        return new RunKept(entries, versions, Status.STARTED);
    }

    public RunKept with(Status status) {
        return new RunKept(experiments, jdks, status);
    }

    /** An experiment's entry; a missing node when it kept none. */
    public JsonNode experiment(String name) {
        return experiments.getOrDefault(name, MissingNode.getInstance());
    }

    /** Into the run folder, whole or not at all: the shutdown hook may write it while the runner does. */
    public void write(RunDir run) throws IOException {
        ObjectNode doc = JSON.createObjectNode();
        doc.put(KEY_STATUS, status.state());
        if (status.stopped() != null) doc.put(KEY_STOPPED, status.stopped());
        doc.put(KEY_ROWS_NOT_RUN, status.rowsNotRun());
        ObjectNode failed = doc.putObject(KEY_FAILED);
        status.failed().forEach(failed::put);
        ObjectNode versions = doc.putObject(KEY_JDKS);
        jdks.forEach((major, version) -> versions.put(Integer.toString(major), version));
        ObjectNode entries = doc.putObject(KEY_EXPERIMENTS);
        experiments.forEach(entries::set);
        // a temporary file per thread: the hook's and the runner's writes never share one
        Path tmp = run.dir().resolve(RunDir.KEPT + "." + Thread.currentThread().threadId() + ".tmp");
        try {
            JSON.writeValue(tmp.toFile(), doc);
            Files.move(tmp, run.kept(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * A run folder's: its kept.json, or for a folder written before the lab kept one, what its environment.json held
     * then ({@link #ofEnvironment}); {@link #NONE} when it has neither or the file does not read.
     */
    public static RunKept read(RunDir run) {
        try {
            if (Files.exists(run.kept())) return of(JSON.readTree(run.kept().toFile()));
            if (Files.exists(run.environmentJson())) return ofEnvironment(JSON.readTree(run.environmentJson().toFile()));
        } catch (IOException e) {
            return NONE;
        }
        return NONE;
    }

    static RunKept of(JsonNode doc) {
        if (doc == null || !doc.isObject()) return NONE;
        Map<String, String> failed = new LinkedHashMap<>();
        doc.path(KEY_FAILED).properties().forEach(e -> failed.put(e.getKey(), e.getValue().asText()));
        Map<Integer, String> jdks = new TreeMap<>();
        doc.path(KEY_JDKS).properties().forEach(e -> {
            int major = majorOf(e.getKey());
            if (major > 0 && e.getValue().isTextual()) jdks.put(major, e.getValue().asText());
        });
        Map<String, JsonNode> entries = new LinkedHashMap<>();
        doc.path(KEY_EXPERIMENTS).properties().forEach(e -> entries.put(e.getKey(), e.getValue()));
        return new RunKept(entries, jdks, status(doc, failed));
    }

    /**
     * The reader of a run folder written before kept.json: its environment.json held the status lines at its top
     * (status, stopped, rows_not_run, a failed study as failed_NAME), the JDKs as "jdks" (major, version), and each
     * experiment's entry under its name. Every object at the top is taken as an entry: the environment's own (options,
     * core_map) are named after no experiment, so no experiment reads them.
     */
    static RunKept ofEnvironment(JsonNode doc) {
        if (doc == null || !doc.isObject()) return NONE;
        Map<String, String> failed = new LinkedHashMap<>();
        Map<String, JsonNode> entries = new LinkedHashMap<>();
        doc.properties().forEach(e -> {
            if (e.getKey().startsWith(OLD_FAILED)) failed.put(e.getKey().substring(OLD_FAILED.length()), e.getValue().asText());
            else if (e.getValue().isObject()) entries.put(e.getKey(), e.getValue());
        });
        Map<Integer, String> jdks = new TreeMap<>();
        for (JsonNode j : doc.path(Environment.JDKS)) {
            if (j.hasNonNull("version") && j.path("major").asInt() > 0) jdks.putIfAbsent(j.path("major").asInt(), j.path("version").asText());
        }
        return new RunKept(entries, jdks, status(doc, failed));
    }

    private static Status status(JsonNode doc, Map<String, String> failed) {
        return new Status(doc.path(KEY_STATUS).asText(""), doc.hasNonNull(KEY_STOPPED) ? doc.path(KEY_STOPPED).asText() : null,
                doc.path(KEY_ROWS_NOT_RUN).asInt(), failed);
    }

    private static int majorOf(String key) {
        try {
            return Integer.parseInt(key);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
