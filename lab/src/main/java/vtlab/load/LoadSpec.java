package vtlab.load;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/**
 * One load run: a closed model of {@code connections} connections, each sending its next request as soon as the
 * previous answer arrives, for {@code duration}. Output (raw and parsed) goes to rawDir/stem.*.
 */
public record LoadSpec(URI url, String method, String body, int connections, int threads, Duration duration,
                       Duration timeout, String cpus, Path rawDir, String stem) {}
