package vtlab.data;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * findings.json of a run folder: what the experiments say about the run, computed by them (on the CLI side) after
 * the run or on ./vtlab report, and read by the summary and the report, which do not know the experiments.
 *
 * @param experiments the run's experiments in order, each with its findings
 * @param sections    the studies' sections of the report, one per data file
 */
public record Findings(List<Entry> experiments, List<StudySection> sections) {
    public static final String FILE = "findings.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /**
     * @param summary  the experiment's one-line description (shown under its section heading)
     * @param findings its findings, each a sentence with the matrix rows it stands on
     * @param error    why its findings could not be computed, or null
     * @param section  the report section its findings link to when it has no matrix rows (a study's), or null
     */
    public record Entry(String name, String summary, List<Finding> findings, String error, String section) {
        public Entry {
            findings = findings == null ? List.of() : List.copyOf(findings);
        }

        /**
         * Read from findings.json; a file written before findings carried their rows has its sentences as "lines"
         * (they are kept, with no row linked).
         */
        @JsonCreator
        public static Entry read(@JsonProperty("name") String name, @JsonProperty("summary") String summary,
                          @JsonProperty("findings") List<Finding> findings, @JsonProperty("lines") List<String> lines,
                          @JsonProperty("error") String error, @JsonProperty("section") String section) {
            return new Entry(name, summary, findings != null ? findings : lines == null ? List.of() : Finding.of(lines), error, section);
        }

        /** Its findings' sentences. */
        public List<String> lines() {
            return Finding.texts(findings);
        }
    }

    public Findings {
        experiments = experiments == null ? List.of() : List.copyOf(experiments);
        sections = sections == null ? List.of() : List.copyOf(sections);
    }

    public static Findings none() {
        return new Findings(List.of(), List.of());
    }

    /** The entry of an experiment, or null when the file does not name it. */
    public Entry of(String experiment) {
        return experiments.stream().filter(e -> e.name().equals(experiment)).findFirst().orElse(null);
    }

    public List<String> names() {
        return experiments.stream().map(Entry::name).toList();
    }

    /** Writes runDir/findings.json (whole or not at all). */
    public void write(Path runDir) throws IOException {
        Path out = runDir.resolve(FILE), tmp = runDir.resolve(FILE + ".tmp");
        JSON.writeValue(tmp.toFile(), this);
        Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** runDir/findings.json, or {@link #none()} when the run folder has none (a run from before the file existed). */
    public static Findings read(Path runDir) throws IOException {
        Path f = runDir.resolve(FILE);
        return Files.exists(f) ? JSON.readValue(f.toFile(), Findings.class) : none();
    }
}
