package vtlab.load.generator;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import vtlab.core.Secrets;
import vtlab.stack.Mix;
import vtlab.stack.Request;
import vtlab.load.LoadSpec;

/**
 * A weighted mix ({@link Mix}) in the languages of the generators that send one: wrk's Lua request() hook and k6's
 * default function. Both choose the next request by smooth weighted round robin (nginx's: every entry gains its
 * weight, the one ahead is sent and loses the total), which holds the weights exactly over every cycle of the total
 * weight: each wrk thread runs its own (a thread sends thousands of requests), k6 indexes one cycle by the scenario's
 * iteration number across all VUs (an arrival-rate executor spreads a load over many VUs with a few iterations
 * each, whose own cycles would favour the heaviest request); the values of the placeholders are drawn
 * at random per request (a range uniformly, a CSV file's row uniformly, every column of that file from that row).
 * The values and the bodies are written into the script (no file to copy to a load agent's host); a secret header's
 * value (Authorization, Cookie, ...) comes from the environment ({@link LoadSpec#mixHeaderEnv}), so the script kept in
 * raw/ does not hold it.
 */
final class MixScript {
    private MixScript() {}

    /** wrk: the mix, the values and request(), which builds each request with wrk.format. */
    static String lua(Mix mix) {
        StringBuilder lua = new StringBuilder("local vtlab_mix = {\n");
        for (int i = 0; i < mix.entries().size(); i++) {
            Mix.Entry e = mix.entries().get(i);
            lua.append("  { name = ").append(luaString(e.name())).append(", method = ").append(luaString(e.method()))
                    .append(", path = ").append(luaString(e.path())).append(", weight = ").append(e.weight())
                    .append(", body = ").append(e.body() == null ? "nil" : luaString(e.body())).append(", headers = {");
            List<String> h = new ArrayList<>();
            for (int j = 0; j < e.headers().size(); j++) {
                Request.Header x = e.headers().get(j);
                h.add("[" + luaString(x.name()) + "] = " + (Secrets.secretHeader(x.name())
                        ? "os.getenv(\"" + LoadSpec.mixHeaderEnv(i, j) + "\")" : luaString(x.value())));
            }
            lua.append(String.join(", ", h)).append("} },\n");
        }
        lua.append("}\nlocal vtlab_total = ").append(mix.totalWeight()).append("\nlocal vtlab_ranges = {\n");
        mix.values().forEach((k, v) -> {
            if (v instanceof Mix.Range r) lua.append("  [").append(luaString(k)).append("] = {").append(r.from()).append(", ").append(r.to()).append("},\n");
        });
        // a value from the environment (a secret the user supplies) read there, never written into the script
        lua.append("}\nlocal vtlab_envs = {\n");
        mix.values().forEach((k, v) -> {
            if (v instanceof Mix.Env e) lua.append("  [").append(luaString(k)).append("] = os.getenv(").append(luaString(e.variable())).append("),\n");
        });
        lua.append("}\nlocal vtlab_files = {\n");
        files(lua, mix, MixScript::luaString, "  { names = {", "}, rows = {\n", "    {", "},\n", "  } },\n");
        lua.append("""
                }
                local vtlab_current = {}
                for i = 1, #vtlab_mix do vtlab_current[i] = 0 end
                local function vtlab_pick()
                  local best = 1
                  for i = 1, #vtlab_mix do
                    vtlab_current[i] = vtlab_current[i] + vtlab_mix[i].weight
                    if vtlab_current[i] > vtlab_current[best] then best = i end
                  end
                  vtlab_current[best] = vtlab_current[best] - vtlab_total
                  return vtlab_mix[best]
                end
                request = function()
                  local e = vtlab_pick()
                  local drawn = {}
                  for k, r in pairs(vtlab_ranges) do drawn[k] = tostring(math.random(r[1], r[2])) end
                  for k, v in pairs(vtlab_envs) do drawn[k] = v end
                  for _, f in ipairs(vtlab_files) do
                    local row = f.rows[math.random(#f.rows)]
                    for j, n in ipairs(f.names) do drawn[n] = row[j] end
                  end
                  local path = (string.gsub(e.path, "{([%a][%w_]*)}", drawn))
                  local body = nil
                  if e.body then body = (string.gsub(e.body, "{([%a][%w_]*)}", drawn)) end
                  return wrk.format(e.method, path, e.headers, body)
                end
                """);
        return lua.toString();
    }

    /** k6: the mix and the values as constants, and the default function sending one request of the mix per iteration. */
    static String js(Mix mix, String base, String timeout) {
        StringBuilder js = new StringBuilder("const BASE = ").append(jsString(base)).append(";\nconst MIX = [\n");
        for (int i = 0; i < mix.entries().size(); i++) {
            Mix.Entry e = mix.entries().get(i);
            List<String> h = new ArrayList<>();
            for (int j = 0; j < e.headers().size(); j++) {
                Request.Header x = e.headers().get(j);
                h.add(jsString(x.name()) + ": " + (Secrets.secretHeader(x.name()) ? "__ENV." + LoadSpec.mixHeaderEnv(i, j) : jsString(x.value())));
            }
            js.append("  { name: ").append(jsString(e.name())).append(", method: ").append(jsString(e.method()))
                    .append(", path: ").append(jsString(e.path())).append(", weight: ").append(e.weight())
                    .append(", body: ").append(e.body() == null ? "null" : jsString(e.body()))
                    .append(", params: { timeout: '").append(timeout).append("', tags: { name: ").append(jsString(e.name())).append(" }")
                    .append(h.isEmpty() ? "" : ", headers: { " + String.join(", ", h) + " }").append(" } },\n");
        }
        js.append("];\nconst TOTAL = ").append(mix.totalWeight()).append(";\nconst RANGES = {");
        List<String> ranges = new ArrayList<>();
        mix.values().forEach((k, v) -> {
            if (v instanceof Mix.Range r) ranges.add(jsString(k) + ": [" + r.from() + ", " + r.to() + "]");
        });
        List<String> envs = new ArrayList<>();
        mix.values().forEach((k, v) -> {
            if (v instanceof Mix.Env e) envs.add(jsString(k) + ": __ENV[" + jsString(e.variable()) + "]");
        });
        js.append(String.join(", ", ranges)).append("};\nconst ENVS = {").append(String.join(", ", envs)).append("};\nconst FILES = [\n");
        files(js, mix, MixScript::jsString, "  { names: [", "], rows: [\n", "    [", "],\n", "  ] },\n");
        js.append("""
                ];
                // the smooth weighted round robin's cycle, once: iteration i of the scenario (counted across every VU)
                // sends SEQ[i % TOTAL], so the whole load holds the weights however few iterations each VU runs
                const SEQ = (() => {
                  const current = MIX.map(() => 0), seq = [];
                  for (let n = 0; n < TOTAL; n++) {
                    let best = 0;
                    for (let i = 0; i < MIX.length; i++) {
                      current[i] += MIX[i].weight;
                      if (current[i] > current[best]) best = i;
                    }
                    current[best] -= TOTAL;
                    seq.push(best);
                  }
                  return seq;
                })();

                function fill(template, drawn) {
                  return template.replace(/\\{([A-Za-z][A-Za-z0-9_]*)\\}/g, (m, k) => (k in drawn ? drawn[k] : m));
                }

                export default function () {
                  const e = MIX[SEQ[exec.scenario.iterationInTest % TOTAL]];
                  const drawn = {};
                  for (const k in RANGES) drawn[k] = String(RANGES[k][0] + Math.floor(Math.random() * (RANGES[k][1] - RANGES[k][0] + 1)));
                  for (const k in ENVS) drawn[k] = ENVS[k];
                  for (const f of FILES) {
                    const row = f.rows[Math.floor(Math.random() * f.rows.length)];
                    f.names.forEach((n, j) => { drawn[n] = row[j]; });
                  }
                  http.request(e.method, BASE + fill(e.path, drawn), e.body === null ? null : fill(e.body, drawn), e.params);
                }
                """);
        return js.toString();
    }

    /**
     * Each CSV file of the mix as a literal of the script's language: its placeholder names, then its rows (one cell
     * per name, quoted by the language's quote), between the given brackets.
     */
    private static void files(StringBuilder out, Mix mix, java.util.function.UnaryOperator<String> quote, String open, String namesEnd,
                              String rowOpen, String rowEnd, String close) {
        for (Map<String, Mix.Column> cols : mix.files().values()) {
            List<String> names = new ArrayList<>(cols.keySet());
            out.append(open).append(String.join(", ", names.stream().map(quote).toList())).append(namesEnd);
            int rows = cols.values().iterator().next().cells().size();
            for (int i = 0; i < rows; i++) {
                final int row = i;
                out.append(rowOpen).append(String.join(", ", names.stream().map(n -> quote.apply(cols.get(n).cells().get(row))).toList())).append(rowEnd);
            }
            out.append(close);
        }
    }

    /** A Lua string literal of the text's UTF-8 bytes: printable ASCII as is, every other byte, quote and backslash as \\ddd. */
    static String luaString(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') out.append((char) c);
            else out.append('\\').append(String.format("%03d", c));
        }
        return out.append('"').toString();
    }

    /** A JavaScript string literal of any text (a JSON string is one). */
    static String jsString(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();
}
