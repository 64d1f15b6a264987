package vtlab.experiment.scenario.accesslog;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import vtlab.core.Secrets;
import vtlab.core.UsageError;

/**
 * Which values of an access log are secret or personal, and so never written: a value is masked by what it looks like
 * (a JWT, an API key's known prefix, a long hex or base64 token, an e-mail address, a card number that passes Luhn)
 * and by its key (a query key, or for a path segment the segment before it). A key is read as its words (split on
 * {@code _ - .} and camelCase) so that a secret word matches whole: {@code access_token} and {@code X-Amz-Signature}
 * are masked, {@code keyword}, {@code author} and {@code design} are not. The user decides last: {@code --keep KEY}
 * never masks a key, {@code --mask KEY} always does.
 */
final class Masking {
    /** Words of a key whose value is a secret, matched whole. */
    static final Set<String> SECRET_WORDS = Set.of("token", "jwt", "otp", "session", "sid", "password", "passwd", "pwd", "pass", "secret",
            "signature", "sig", "apikey", "auth", "credential", "credentials", "nonce", "saml", "assertion", "bearer");
    /**
     * "code", "key" and "ticket" are a secret's only alone (OAuth's code=, key=, CAS's ticket=) or beside one of these
     * words: a zip_code, a sort_key, a ticket_id are not.
     */
    static final Set<String> QUALIFIERS = Set.of("api", "access", "secret", "private", "license", "licence", "app", "client", "auth", "signing",
            "encryption", "session", "master", "oauth", "otp", "verification", "verify", "reset", "confirmation", "login", "mfa", "sms", "pin");
    private static final Set<String> ALONE = Set.of("code", "key", "ticket");
    /** Words of a key whose value is personal. */
    static final Set<String> PERSONAL_WORDS = Set.of("email", "mail", "phone", "mobile", "msisdn", "ssn", "iban", "card", "cvv",
            "dob", "birthdate", "passport");
    /** Keys written as one word whose parts are a secret's (the split does not see them). */
    static final Set<String> SECRET_SHAPES = Set.of("accesstoken", "refreshtoken", "idtoken", "authtoken", "apikey", "xapikey", "sessionid",
            "jsessionid", "phpsessid", "aspsessionid", "sessid", "clientsecret", "privatekey", "secretkey", "accesskey", "authcode", "oauthtoken",
            "oauthverifier", "resettoken", "otpcode", "passcode", "pincode", "emailaddress", "phonenumber", "creditcard", "cardnumber");
    /** Path words after which a token-shaped segment is a secret: a reset link's, a magic login's, a key's. */
    static final Set<String> SECRET_PATHS = Set.of("reset", "verify", "verification", "confirm", "confirmation", "activate", "activation", "invite",
            "invitation", "unsubscribe", "magic", "token", "tokens", "key", "keys", "secret", "secrets", "session", "sessions", "password", "share");

    private static final Pattern JWT = Pattern.compile("eyJ[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]*");
    private static final Pattern API_KEY = Pattern.compile("(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{8,}.*|pk_[A-Za-z0-9]{16,}|gh[pousr]_[A-Za-z0-9]{20,}"
            + "|github_pat_[A-Za-z0-9_]{20,}|(?:AKIA|ASIA)[0-9A-Z]{16}|xox[abposr]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{35}|glpat-[A-Za-z0-9_-]{20,}");
    private static final Pattern EMAIL = Pattern.compile("[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)*\\.[A-Za-z]{2,}");
    /** 32 hex digits or more: a digest or a random token (an object id's 24 and a trace id's 16 stay ids). */
    private static final Pattern HEX = Pattern.compile("[0-9a-fA-F]{32,}");
    /** A base64 token: 24 characters or more mixing cases and digits (a slug of words has separators, not this). */
    private static final Pattern BASE64 = Pattern.compile("(?=.*[a-z])(?=.*[A-Z])(?=.*[0-9])[A-Za-z0-9+/_-]{24,}={0,2}");
    /** A token-shaped path segment: 8 characters or more with a digit (what the template calls a token). */
    private static final Pattern TOKENISH = Pattern.compile("(?=.*[0-9])[A-Za-z0-9_.~%-]{8,}");
    private static final Pattern CARD = Pattern.compile("[2-6][0-9]{12,18}");

    private final Set<String> keep, mask;

    /** keep, mask: the keys the user named (a query key, a path's word before the segment, or a placeholder's name). */
    Masking(Set<String> keep, Set<String> mask) {
        this.keep = lower(keep);
        this.mask = lower(mask);
    }

    /** --keep and --mask as given (repeatable, comma lists); refused in one line when they name the same key. */
    static Masking of(List<String> keep, List<String> mask) throws UsageError {
        Set<String> k = lower(new LinkedHashSet<>(keep)), m = lower(new LinkedHashSet<>(mask));
        for (String key : k) if (m.contains(key)) throw new UsageError("--keep and --mask both name '" + key + "': say which it is");
        return new Masking(k, m);
    }

    private static Set<String> lower(Set<String> keys) {
        Set<String> out = new LinkedHashSet<>();
        for (String k : keys) if (!k.isBlank()) out.add(k.strip().toLowerCase(Locale.ROOT));
        return out;
    }

    /**
     * Why this value is masked ("jwt", "e-mail", "secret key", "--mask", ...), or null when it is kept.
     *
     * @param key        its query key, or the path's word before the segment, or null (a bare query string)
     * @param pathSegment whether the value is a path segment (a key of the path masks only a token-shaped one)
     * @param name       the placeholder's name (--keep and --mask may name it)
     */
    String kind(String key, boolean pathSegment, String name, String value) {
        if (value.isEmpty()) return null;
        String k = key == null ? null : key.toLowerCase(Locale.ROOT);
        if ((k != null && keep.contains(k)) || (name != null && keep.contains(name.toLowerCase(Locale.ROOT)))) return null;
        if ((k != null && mask.contains(k)) || (name != null && mask.contains(name.toLowerCase(Locale.ROOT)))) return "--mask";
        String decoded = decode(value);
        String shape = shape(decoded);
        if (shape == null) shape = within(decoded);
        if (shape != null) return shape;
        if (key == null) return null;
        if (pathSegment) return SECRET_PATHS.contains(k) && TOKENISH.matcher(value).matches() ? "token after /" + key + "/" : null;
        return keyKind(key);
    }

    /** What a key says of its value: "secret key" or "personal key", or null. */
    static String keyKind(String key) {
        String joined = key.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
        List<String> words = words(key);
        if (SECRET_SHAPES.contains(joined)) return joined.matches("email.*|phone.*|.*card.*") ? "personal key" : "secret key";
        for (String w : words) if (SECRET_WORDS.contains(w)) return "secret key";
        for (String w : words) {
            if (ALONE.contains(w) && (words.size() == 1 || words.stream().anyMatch(QUALIFIERS::contains))) return "secret key";
        }
        for (String w : words) if (PERSONAL_WORDS.contains(w)) return "personal key";
        return null;
    }

    /** A key's words: split on '_', '-', '.', and where camelCase turns to a capital; lower case. */
    static List<String> words(String key) {
        List<String> out = new ArrayList<>();
        for (String part : key.split("[_.\\-\\[\\]\\s]+")) {
            for (String w : part.split("(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")) if (!w.isEmpty()) out.add(w.toLowerCase(Locale.ROOT));
        }
        return out;
    }

    /** What the value itself is, when it is a secret or personal: null when it looks like neither. */
    static String shape(String v) {
        if (v.length() < 6) return null;
        if (JWT.matcher(v).matches()) return "jwt";
        if (API_KEY.matcher(v).matches()) return "api key";
        if (EMAIL.matcher(v).matches()) return "e-mail";
        String digits = v.replaceAll("[ -]", "");
        if (CARD.matcher(digits).matches() && luhn(digits)) return "card number";
        if (HEX.matcher(v).matches()) return "hex token";
        if (BASE64.matcher(v).matches() && v.chars().filter(c -> c == '-' || c == '_').count() <= 2 && random(v)) return "base64 token";
        return null;
    }

    /**
     * Whether a string's characters change class (capital, small, digit, other) as random ones do: about 2 in 3
     * neighbours of random base64 differ, a name's (SuperWidgetModel2024XLEdition) fewer. 1 in 3 is the line: a random
     * 24-character token falls under it about once in 500 (a secret's leak costs more than a name sent as a variable).
     */
    static boolean random(String v) {
        int changes = 0;
        for (int i = 1; i < v.length(); i++) if (charClass(v.charAt(i)) != charClass(v.charAt(i - 1))) changes++;
        return changes * 3 >= v.length() - 1;
    }

    private static int charClass(char c) {
        return Character.isUpperCase(c) ? 0 : Character.isLowerCase(c) ? 1 : Character.isDigit(c) ? 2 : 3;
    }

    /**
     * What a secret inside a value is (a redirect URL's token=..., "Bearer eyJ..."), "... within", or null: the value's
     * pieces checked as {@link #scrub} checks a line's.
     */
    static String within(String value) {
        Matcher m = PIECE.matcher(value);
        while (m.find()) {
            String piece = m.group(2), s = piece.equals(value) ? null : shape(piece);
            if (s != null) return s + " within";
            if (m.group(1) != null && keyKind(m.group(1).substring(0, m.group(1).length() - 1)) != null) return "secret within";
        }
        return null;
    }

    /** Each secret-looking piece of free text (a line shown because it did not parse) as {@link Secrets#MASK}. */
    static String scrub(String text) {
        Matcher m = PIECE.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String key = m.group(1) == null ? null : m.group(1).substring(0, m.group(1).length() - 1);
            boolean secret = shape(decode(m.group(2))) != null || (key != null && keyKind(key) != null);
            m.appendReplacement(sb, Matcher.quoteReplacement(secret ? (m.group(1) == null ? "" : m.group(1)) + Secrets.MASK : m.group()));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    private static final Pattern PIECE = Pattern.compile("([A-Za-z0-9_.-]+=)?([^\\s\"'&?=/;,<>()\\[\\]{}]+)");

    /** The Luhn check every payment card number passes (and 1 in 10 other digit runs: hence the card's length and first digit too). */
    static boolean luhn(String digits) {
        int sum = 0;
        boolean twice = false;
        for (int i = digits.length() - 1; i >= 0; i--) {
            int d = digits.charAt(i) - '0';
            if (twice) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
            sum += d;
            twice = !twice;
        }
        return sum % 10 == 0;
    }

    /** A value as the service reads it (%40 is '@'); as logged when it does not decode. */
    private static String decode(String v) {
        if (v.indexOf('%') < 0 && v.indexOf('+') < 0) return v;
        try {
            return URLDecoder.decode(v, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return v;
        }
    }
}
