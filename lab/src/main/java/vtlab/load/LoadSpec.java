package vtlab.load;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/**
 * One load run for {@code duration}. Closed model: {@code connections} connections, each sending its next request as
 * soon as the previous answer arrives. Open model: {@code rate} requests per second sent on schedule, at most
 * {@code connections} in flight (the generator's connection cap). Output (raw and parsed) goes to rawDir/stem.*.
 *
 * @param rate requests per second of an open-model load; null for a closed one
 */
public record LoadSpec(URI url, String method, String body, int connections, int threads, Duration duration,
                       Duration timeout, String cpus, Path rawDir, String stem, LoadModel model, Double rate) {
    /** A closed-model load (the lab's default). */
    public LoadSpec(URI url, String method, String body, int connections, int threads, Duration duration, Duration timeout,
                    String cpus, Path rawDir, String stem) {
        this(url, method, body, connections, threads, duration, timeout, cpus, rawDir, stem, LoadModel.CLOSED, null);
    }

    public LoadSpec {
        if ((model == LoadModel.OPEN) != (rate != null)) throw new IllegalArgumentException("an open load has a rate, a closed one none");
    }
}
