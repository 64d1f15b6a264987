package vtlab.experiment.scenario.accesslog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import vtlab.core.UsageError;

/** A value is masked by what it looks like and by its key's whole words; the user's --keep and --mask decide last. */
class MaskingTest {
    static final String JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyNDIifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
    final Masking none = new Masking(Set.of(), Set.of());

    @Test
    void valuesAreMaskedByTheirShape() {
        assertEquals("jwt", Masking.shape(JWT));
        assertEquals("api key", Masking.shape("sk_live_4eC39HqLyjWDarjtT1zdp7dc"));
        assertEquals("api key", Masking.shape("ghp_16C7e42F292c6912E7710c838347Ae178B4a"));
        assertEquals("api key", Masking.shape("AKIAIOSFODNN7EXAMPLE"));
        assertEquals("api key", Masking.shape("xoxb-123456789012-abcdefghij"));
        assertEquals("e-mail", Masking.shape("alice.smith+shop@example.co.uk"));
        assertEquals("card number", Masking.shape("4111111111111111"));
        assertEquals("card number", Masking.shape("4111-1111-1111-1111"));
        assertEquals("hex token", Masking.shape("3f2a9c4e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39"));
        assertEquals("base64 token", Masking.shape("dGhpcyBpcyBhIHNlY3JldCB0b2tlbg=="));
        // ids stay ids: a number, a Luhn-failing digit run, epoch ms, an object id, a slug, a word
        for (String id : List.of("42", "4111111111111112", "1733551200123", "5f8d0d55b54764421b7156c5", "my-first-blog-post-2024", "shoes",
                "SuperWidgetModel2024XLEdition")) {
            assertNull(Masking.shape(id), id);
        }
    }

    @Test
    void keysAreMatchedByWholeWords() {
        for (String k : List.of("token", "access_token", "accessToken", "X-Amz-Signature", "sig", "jwt", "code", "otp", "session", "password",
                "api_key", "apiKey", "client-secret", "auth", "ticket", "SAMLResponse")) {
            assertEquals("secret key", Masking.keyKind(k), k);
        }
        assertEquals("personal key", Masking.keyKind("email"));
        assertEquals("personal key", Masking.keyKind("user.phone"));
        for (String k : List.of("keyword", "author", "design", "zip_code", "sort_key", "ticket_id", "q", "page", "signup")) assertNull(Masking.keyKind(k), k);
        assertEquals(List.of("x", "amz", "signature"), Masking.words("X-Amz-Signature"));
        assertEquals(List.of("access", "token"), Masking.words("accessToken"));
    }

    @Test
    void pathSegmentsAndTheUsersChoices() {
        assertEquals("token after /reset/", none.kind("reset", true, "reset_id", "a1b2c3d4e5"));
        assertNull(none.kind("orders", true, "orders_id", "a1b2c3d4e5"), "a token-shaped id of another path word stays");
        assertNull(none.kind("token", true, "token_id", "latest"), "a path word after /token/ without a digit is a word");
        assertEquals("secret key", none.kind("code", false, "code", "x7"));
        assertNull(none.kind("keyword", false, "keyword", "x7"));
        assertEquals("secret within", none.kind("redirect", false, "redirect", "https%3A%2F%2Fshop.example%2Fcb%3Ftoken%3Dabc123"));
        assertEquals("jwt within", none.kind("h", false, "h", "Bearer%20" + JWT));
        assertNull(none.kind("redirect", false, "redirect", "https%3A%2F%2Fshop.example%2Fcart%3Fpage%3D2"));
        Masking m = new Masking(Set.of("code"), Set.of("Keyword"));
        assertNull(m.kind("code", false, "code", "x7"), "--keep code");
        assertEquals("--mask", m.kind("keyword", false, "keyword", "shoes"));
        assertNull(m.kind("code", false, "code", JWT), "--keep wins over the shape");
    }

    @Test
    void keepAndMaskOfOneKeyAreRefused() {
        UsageError e = assertThrows(UsageError.class, () -> Masking.of(List.of("q", "Token"), List.of("token")));
        assertTrue(e.getMessage().contains("'token'"), e.getMessage());
    }

    @Test
    void aLineShownIsScrubbed() {
        String s = Masking.scrub("garbage GET /reset?token=abc&to=bob@example.com " + JWT + " ok");
        assertFalse(s.contains("abc") || s.contains("bob@") || s.contains(JWT), s);
        assertTrue(s.contains("garbage GET") && s.endsWith(" ok"), s);
    }
}
