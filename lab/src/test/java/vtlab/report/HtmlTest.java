package vtlab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

class HtmlTest {
    @Test
    void textAndAttributesEscapeEveryMarkupCharacter() {
        assertEquals("&lt;img src=x onerror=&quot;a(&#39;1&#39;)&quot;&gt; &amp;amp;", Html.esc("<img src=x onerror=\"a('1')\"> &amp;"));
        assertEquals("", Html.esc(null));
        assertEquals("-Xmx512m -Dx=1", Html.esc("-Xmx512m -Dx=1"));
    }

    @Test
    void jsonInsideAScriptElementCannotCloseItAndMeansTheSame() throws Exception {
        String hostile = "</script><script>alert(1)</script><!-- & \u2028 \u2029 done";
        String json = Html.scriptJson(Map.of("note", hostile));
        assertFalse(json.contains("</"), json);
        assertFalse(json.contains("<!--"), json);
        assertFalse(json.contains("\u2028") || json.contains("\u2029"), json);
        assertEquals(hostile, new ObjectMapper().readTree(json).get("note").asText());
    }

    @Test
    void anchorsHoldOnlySafeCharacters() {
        assertEquals("exp-pool-bottleneck", Html.anchor("exp", "pool-bottleneck"));
        assertEquals("exp-a-b-c", Html.anchor("exp", "\"A\"<b>'c'"));
        assertTrue(Html.anchor("exp", "").matches("exp-[a-z0-9-]+"));
    }
}
