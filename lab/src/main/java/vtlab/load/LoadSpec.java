package vtlab.load;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import vtlab.core.Secrets;
import vtlab.plan.RateProfile;
import vtlab.proc.Env;
import vtlab.stack.Mix;
import vtlab.stack.Request;

/**
 * One load run for {@code duration}. Closed model: {@code connections} connections, each sending its next request as
 * soon as the previous answer arrives. Open model: {@code rate} requests per second sent on schedule, at most
 * {@code connections} in flight (the generator's connection cap). Output (raw and parsed) goes to rawDir/stem.*.
 *
 * @param request what every request is, exactly: method, headers, body (the generator sends these bytes and headers)
 * @param rate requests per second of an open-model load; null for a closed one
 * @param rateOnly only the rate is wanted (a warm-up slice): a generator that pays for its details skips them (wrk's
 *                 histogram walk costs up to 20 s of its core after a wide-tailed run, its per-second hook CPU)
 * @param profile  an open load's offered rate over its duration (--rate-profile; rate is then its mean), null for a
 *                 constant rate; only a generator that {@link Generator#followsRateProfile() follows profiles} gets one
 * @param bursts   requests in flight may jump to the cap within a second (a fault holds answers back): a generator that
 *                 sizes its workers to the rate (k6's VUs) readies the whole cap before the start, since adding workers
 *                 mid-run drops the requests due meanwhile (seen: 50-132 of a 14 s hold at 100 req/s)
 * @param mix      a weighted mix of requests sent instead of the one request (null: none); only a generator that
 *                 {@link Generator#sendsMix() sends a mix} gets one
 */
public record LoadSpec(URI url, Request request, int connections, int threads, Duration duration,
                       Duration timeout, String cpus, Path rawDir, String stem, LoadModel model, Double rate, boolean rateOnly,
                       RateProfile profile, boolean bursts, Mix mix) {
    /** A load of one request. */
    public LoadSpec(URI url, Request request, int connections, int threads, Duration duration, Duration timeout, String cpus,
                    Path rawDir, String stem, LoadModel model, Double rate, boolean rateOnly, RateProfile profile, boolean bursts) {
        this(url, request, connections, threads, duration, timeout, cpus, rawDir, stem, model, rate, rateOnly, profile, bursts, null);
    }

    /** A closed-model load (the lab's default). */
    public LoadSpec(URI url, Request request, int connections, int threads, Duration duration, Duration timeout,
                    String cpus, Path rawDir, String stem) {
        this(url, request, connections, threads, duration, timeout, cpus, rawDir, stem, LoadModel.CLOSED, null);
    }

    /** A measured load: every detail the generator gives. */
    public LoadSpec(URI url, Request request, int connections, int threads, Duration duration, Duration timeout,
                    String cpus, Path rawDir, String stem, LoadModel model, Double rate) {
        this(url, request, connections, threads, duration, timeout, cpus, rawDir, stem, model, rate, false);
    }

    /** A load at a constant rate (or a closed one). */
    public LoadSpec(URI url, Request request, int connections, int threads, Duration duration, Duration timeout,
                    String cpus, Path rawDir, String stem, LoadModel model, Double rate, boolean rateOnly) {
        this(url, request, connections, threads, duration, timeout, cpus, rawDir, stem, model, rate, rateOnly, null, false);
    }

    /** The same load for its rate alone (see rateOnly): a warm-up, where no fault holds answers back (no bursts). */
    public LoadSpec forRateOnly() {
        return new LoadSpec(url, request, connections, threads, duration, timeout, cpus, rawDir, stem, model, rate, true, profile, false, mix);
    }

    /** The same open load following a rate profile over its duration (null: at its constant rate). */
    public LoadSpec withProfile(RateProfile p) {
        return new LoadSpec(url, request, connections, threads, duration, timeout, cpus, rawDir, stem, model, rate, rateOnly, p, bursts, mix);
    }

    /** The same load expecting bursts of requests in flight (see bursts). */
    public LoadSpec withBursts() {
        return new LoadSpec(url, request, connections, threads, duration, timeout, cpus, rawDir, stem, model, rate, rateOnly, profile, true, mix);
    }

    /** The same load sending a mix of requests (null: the one request). */
    public LoadSpec withMix(Mix m) {
        return new LoadSpec(url, request, connections, threads, duration, timeout, cpus, rawDir, stem, model, rate, rateOnly, profile, bursts, m);
    }

    /** The same load writing its files under another stem (a load agent's share). */
    public LoadSpec withStem(String other) {
        return new LoadSpec(url, request, connections, threads, duration, timeout, cpus, rawDir, other, model, rate, rateOnly, profile, bursts, mix);
    }

    public LoadSpec {
        if ((model == LoadModel.OPEN) != (rate != null)) throw new IllegalArgumentException("an open load has a rate, a closed one none");
        if (profile != null && model != LoadModel.OPEN) throw new IllegalArgumentException("a rate profile is an open load's");
        if (profile != null && profile.end().compareTo(duration) > 0) throw new IllegalArgumentException("the rate profile " + profile + " ends after the load");
    }

    /** The environment variable a script reads the i-th header's value from (0-based) when it is a secret. */
    public static String headerEnv(int i) {
        return "VTLAB_HEADER_" + i;
    }

    /** The environment variable a script reads the j-th header of the mix's i-th request from (0-based) when it is a secret. */
    public static String mixHeaderEnv(int i, int j) {
        return "VTLAB_MIX_HEADER_" + i + "_" + j;
    }

    /**
     * Values of the secret headers (Authorization, Cookie, ...: {@link Secrets#secretHeader}) by {@link #headerEnv}:
     * wrk's and k6's scripts read them from their environment, so the scripts kept in raw/ never hold them.
     */
    public Env secretHeaderEnv() {
        Env env = Env.NONE;
        List<Request.Header> h = request.headers();
        for (int i = 0; i < h.size(); i++) if (Secrets.secretHeader(h.get(i).name())) env = env.with(headerEnv(i), h.get(i).value());
        if (mix != null) {
            for (int i = 0; i < mix.entries().size(); i++) {
                List<Request.Header> m = mix.entries().get(i).headers();
                for (int j = 0; j < m.size(); j++) if (Secrets.secretHeader(m.get(j).name())) env = env.with(mixHeaderEnv(i, j), m.get(j).value());
            }
            // a value the user supplies in a variable of their own (a secret masked by an access log's import): passed on as it is named
            for (Mix.Values v : mix.values().values()) if (v instanceof Mix.Env e && e.value() != null) env = env.with(e.variable(), e.value());
        }
        return env;
    }
}
