package vtlab.load.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import vtlab.stack.Mix;
import vtlab.stack.Request;
import vtlab.load.LoadSpec;

/** A weighted mix in wrk's Lua and k6's script; which generators send one. */
class MixScriptTest {
    static final Mix MIX = new Mix(List.of(
            new Mix.Entry("owner", "GET", "/owners/{id}", List.of(new Request.Header("Accept", "text/html")), null, 2, "", 5),
            new Mix.Entry("size", "POST", "/bytes?n={n}", List.of(), "n={n}", 200, "", 2)),
            Map.of("id", new Mix.Range(1, 10), "n", new Mix.Column(Path.of("/x/sizes.csv"), "n", List.of("10", "100"))));

    static LoadSpec spec() {
        return new LoadSpec(URI.create("http://127.0.0.1:18080/"), Request.of("GET"), 10, 1, Duration.ofSeconds(5), Duration.ofSeconds(30),
                "1", Path.of("/tmp"), "s").withMix(MIX);
    }

    @Test
    void wrkSendsTheMixThroughItsRequestHook() {
        String lua = WrkGenerator.script(Request.of("GET"), MIX, null, true, true);
        assertTrue(lua.contains("{ name = \"owner\", method = \"GET\", path = \"/owners/{id}\", weight = 5, body = nil, headers = {[\"Accept\"] = \"text/html\"} },"), lua);
        assertTrue(lua.contains("[\"id\"] = {1, 10},"), lua);
        assertTrue(lua.contains("{ names = {\"n\"}, rows = {\n    {\"10\"},\n    {\"100\"},\n  } },"), lua);
        assertTrue(lua.contains("request = function()"), lua);
        assertTrue(lua.contains("return wrk.format(e.method, path, e.headers, body)"), lua);
        assertFalse(lua.contains("wrk.method ="), "the one request is not set: " + lua);
        assertTrue(lua.contains("done = function(summary, latency, requests)"), "the results block as always");
    }

    @Test
    void k6SendsTheMixFromItsScriptEachRequestTaggedWithItsName() {
        String js = K6Generator.script(spec(), null);
        assertTrue(js.contains("const BASE = \"http://127.0.0.1:18080\";"), js);
        assertTrue(js.contains("{ name: \"size\", method: \"POST\", path: \"/bytes?n={n}\", weight: 2, body: \"n={n}\", params: { timeout: '30000ms', tags: { name: \"size\" } } },"), js);
        assertTrue(js.contains("http.request(e.method, BASE + fill(e.path, drawn)"), js);
        assertFalse(js.contains("http.request(METHOD, URL, BODY, PARAMS)"), js);
        assertEquals(1, js.split("export default function").length - 1, js);
    }

    @Test
    void aSecretHeaderOfTheMixComesFromTheEnvironmentNotTheScript() {
        Mix secret = new Mix(List.of(new Mix.Entry("me", "GET", "/me", List.of(new Request.Header("Authorization", "Bearer s3cr3t")), null, 2, "", 1)), Map.of());
        String lua = WrkGenerator.script(Request.of("GET"), secret, null, false, false);
        assertTrue(lua.contains("[\"Authorization\"] = os.getenv(\"VTLAB_MIX_HEADER_0_0\")"), lua);
        LoadSpec s = spec().withMix(secret);
        String js = K6Generator.script(s, null);
        assertTrue(js.contains("\"Authorization\": __ENV.VTLAB_MIX_HEADER_0_0"), js);
        assertFalse(lua.contains("s3cr3t") || js.contains("s3cr3t"));
        assertEquals(Map.of("VTLAB_MIX_HEADER_0_0", "Bearer s3cr3t"), s.secretHeaderEnv().asMap());
    }

    /** A value the user supplies in a variable (a secret an access log's import masked): read where the tool runs, never written. */
    @Test
    void aValueFromTheEnvironmentIsReadThereNotWritten() {
        Mix secret = new Mix(List.of(new Mix.Entry("reset", "GET", "/reset/{t}", List.of(), null, 2, "", 1)),
                Map.of("t", new Mix.Env("VTLAB_SECRET_T", "s3cr3t")));
        String lua = WrkGenerator.script(Request.of("GET"), secret, null, false, false);
        assertTrue(lua.contains("[\"t\"] = os.getenv(\"VTLAB_SECRET_T\"),"), lua);
        LoadSpec s = spec().withMix(secret);
        String js = K6Generator.script(s, null);
        assertTrue(js.contains("const ENVS = {\"t\": __ENV[\"VTLAB_SECRET_T\"]};"), js);
        assertFalse(lua.contains("s3cr3t") || js.contains("s3cr3t"));
        assertEquals(Map.of("VTLAB_SECRET_T", "s3cr3t"), s.secretHeaderEnv().asMap());
        assertEquals("***", VegetaGenerator.draw(secret, new java.util.Random(1), true).asMap().get("t"), "vegeta's targets kept in raw/");
        assertEquals("s3cr3t", VegetaGenerator.draw(secret, new java.util.Random(1), false).asMap().get("t"), "the ones it reads, private");
    }

    @Test
    void wrkAndK6SendAMixOhaAndHeyDoNot() {
        assertTrue(new WrkGenerator().sendsMix());
        assertTrue(new K6Generator().sendsMix());
        assertTrue(new VegetaGenerator().sendsMix());
        assertFalse(new OhaGenerator().sendsMix());
        assertFalse(new HeyGenerator().sendsMix());
    }
}
