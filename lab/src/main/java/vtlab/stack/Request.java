package vtlab.stack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The HTTP request a workload sends, exactly: the method, headers in the order given, and the body's bytes (none:
 * null). Every generator and the check before load send this one request; the lab's own workloads make theirs from
 * stack.json ({@link #filler}), ./vtlab ab from --method, --header and --body.
 */
public record Request(String method, List<Header> headers, Body body) {
    public static final String CONTENT_TYPE = "Content-Type";
    /** The type of the lab's own bodies (bytes of 'x' whose count is the workload's point). */
    public static final String OCTET_STREAM = "application/octet-stream";

    public record Header(String name, String value) {}

    public Request {
        headers = List.copyOf(headers);
    }

    /** No headers, no body. */
    public static Request of(String method) {
        return new Request(method, List.of(), null);
    }

    /** A lab workload's body: {@code bytes} bytes of 'x', as application/octet-stream (what the lab has always sent). */
    public static Request filler(String method, int bytes) {
        byte[] b = new byte[bytes];
        java.util.Arrays.fill(b, (byte) 'x');
        return new Request(method, List.of(new Header(CONTENT_TYPE, OCTET_STREAM)), Body.of(b));
    }

    /**
     * Why java.net.http (the lab's check of the endpoint before load sends the workload's request with it) would not
     * send this header, in the JDK's own words, or null when it would: its restricted names (Connection, Content-Length,
     * Expect, Host, Upgrade), a name that is not an HTTP token, a value with a line break.
     */
    public static String unsendable(String name, String value) {
        try {
            java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1/")).header(name, value);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage().replace("\r", "\\r").replace("\n", "\\n"); // it quotes the value: one line all the same
        }
    }

    /** The first value of a header, by name in any case. */
    public Optional<String> header(String name) {
        return headers.stream().filter(h -> h.name().equalsIgnoreCase(name)).map(Header::value).findFirst();
    }

    /** The headers but the one named (in any case): for tools that take it with its own flag (hey's and oha's -T). */
    public List<Header> headersBut(String name) {
        return headers.stream().filter(h -> !h.name().equalsIgnoreCase(name)).toList();
    }

    /**
     * A request body: bytes held in memory (the lab's, a literal --body) or a file's bytes (--body @FILE, read by the
     * generators themselves, never inlined).
     */
    public static final class Body {
        private final byte[] bytes;
        private final Path file;
        private final long length;

        private Body(byte[] bytes, Path file, long length) {
            this.bytes = bytes;
            this.file = file;
            this.length = length;
        }

        public static Body of(byte[] bytes) {
            return new Body(bytes.clone(), null, bytes.length);
        }

        /** A file's bytes; its size is read now (the file must exist). */
        public static Body ofFile(Path file) throws IOException {
            Path f = file.toAbsolutePath().normalize();
            return new Body(null, f, Files.size(f));
        }

        public long length() {
            return length;
        }

        /** The bytes (a file's read now). */
        public byte[] bytes() throws IOException {
            return file != null ? Files.readAllBytes(file) : bytes.clone();
        }

        /**
         * A file holding exactly these bytes, for the generators (wrk's Lua, oha's and hey's -D, k6's open()): the
         * user's own file, or the bytes written once into dir under a name from their digest (a run keeps one file per
         * distinct body, however many loads send it).
         */
        public Path file(Path dir) throws IOException {
            if (file != null) return file;
            Path f = dir.toAbsolutePath().resolve("body-" + length + "-" + digest().substring(0, 12) + ".bin");
            if (!Files.exists(f)) {
                Files.createDirectories(dir);
                Path tmp = Files.createTempFile(dir, "body", ".tmp");
                Files.write(tmp, bytes);
                Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
            return f;
        }

        /** SHA-256 of the bytes, hex. */
        public String digest() throws IOException {
            try {
                return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes()));
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public String toString() {
            return file != null ? "@" + file + " (" + length + " bytes)" : length + " bytes";
        }
    }
}
