package vtlab.run;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import vtlab.plan.Row;
import vtlab.plan.VerificationFailed;
import vtlab.stack.Request;
import vtlab.stack.Stack;

/**
 * Verification before load, as TechEmpower does: the SUT must report the configuration the row intends, and the
 * workload endpoint must answer with the expected status and body. A mismatch fails the row; it never gives numbers.
 */
public final class Verifier {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** Differences between what runtime-info reports and what the row expects; empty when they agree. */
    public static List<String> mismatches(JsonNode info, Map<String, Object> expect) {
        List<String> out = new ArrayList<>();
        expect.forEach((key, want) -> {
            JsonNode got = info.get(key);
            String g = got == null || got.isNull() ? null : got.asText();
            String w = want == null ? null : String.valueOf(want);
            if (w == null ? g != null : !w.equals(g)) out.add(key + "=" + g + " (expected " + w + ")");
        });
        return out;
    }

    public JsonNode verifyConfig(String runtimeInfoJson, Row row) throws VerificationFailed {
        JsonNode info;
        try {
            info = JSON.readTree(runtimeInfoJson);
        } catch (IOException e) {
            throw new VerificationFailed("runtime-info is not JSON: " + e.getMessage());
        }
        List<String> bad = new ArrayList<>(mismatches(info, row.expectInfo()));
        // every stack that runs virtual threads reports its scheduler's parallelism: it must be the row's carrier count
        if (info.has("vt_carriers") && row.carriers() != null) bad.addAll(mismatches(info, Map.<String, Object>of("vt_carriers", row.carriers())));
        if (!bad.isEmpty()) throw new VerificationFailed("SUT configuration differs from the row: " + String.join(", ", bad));
        return info;
    }

    /** One request to the workload endpoint, the one the generators send (method, headers, body), checked for status and body pattern. */
    public void verifyEndpoint(URI url, Stack.Workload w) throws VerificationFailed, InterruptedException {
        if (w.mix() != null) { // a mix: each of its requests once, with the first value of each placeholder
            vtlab.stack.Params first = w.mix().firstValues();
            for (vtlab.stack.Mix.Entry e : w.mix().entries()) {
                Stack.Workload one = e.workload(first);
                try {
                    verifyEndpoint(url.resolve(one.path()), one);
                } catch (VerificationFailed f) {
                    throw new VerificationFailed("request " + e.name() + ": " + f.getMessage());
                }
            }
            return;
        }
        HttpRequest req;
        try {
            req = request(url, w.request());
        } catch (IOException e) {
            throw new VerificationFailed("cannot read the request body: " + e.getMessage());
        }
        HttpResponse<String> r;
        try {
            r = http.send(req, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new VerificationFailed(url + " did not answer: " + e.getMessage());
        }
        if (!w.statusOk(r.statusCode())) {
            throw new VerificationFailed(url + " answered " + r.statusCode() + ", expected " + w.expectedStatus());
        }
        if (!w.expectBody().isEmpty() && !Pattern.compile(w.expectBody(), Pattern.MULTILINE).matcher(r.body()).find()) {
            String body = r.body().length() > 120 ? r.body().substring(0, 120) + "..." : r.body();
            throw new VerificationFailed(url + " body does not match /" + w.expectBody() + "/: " + body.strip());
        }
    }

    /** The workload's request for java.net.http: its method, its headers in order, its body's bytes. */
    static HttpRequest request(URI url, Request w) throws IOException {
        HttpRequest.Builder req = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(30));
        for (Request.Header h : w.headers()) req.header(h.name(), h.value());
        req.method(w.method(), w.body() == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(w.body().bytes()));
        return req.build();
    }
}
