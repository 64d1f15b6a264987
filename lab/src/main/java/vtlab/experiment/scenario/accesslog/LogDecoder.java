package vtlab.experiment.scenario.accesslog;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The one reader of an access log's lines, for detecting its format and for reading it: UTF-8, a line of bytes that
 * are not (a Latin-1 user agent, a cut write) read with those bytes replaced rather than refused, and counted, so
 * that the import says how many it tolerated. Lines end at '\n' (a '\r' before it dropped); a line longer than
 * {@link #MAX_LINE} bytes is cut there (the rest skipped and counted), so one runaway line cannot take the heap.
 */
final class LogDecoder implements Closeable {
    /** The longest line kept, in bytes: an access log's line is a request's, far shorter. */
    static final int MAX_LINE = 64 * 1024;

    private final InputStream in;
    private final CharsetDecoder strict = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    private final byte[] buf = new byte[1 << 16];
    private int pos, limit;
    private byte[] line = new byte[256];
    private boolean eof;
    /** Lines read with bytes replaced, and lines cut at {@link #MAX_LINE}. */
    private long replaced, cut;

    LogDecoder(InputStream in) {
        this.in = in;
    }

    static LogDecoder open(Path log) throws IOException {
        return new LogDecoder(Files.newInputStream(log));
    }

    /** The next line (without its end), or null at the end of the log. */
    String readLine() throws IOException {
        int n = 0;
        boolean any = false, over = false;
        while (true) {
            if (pos == limit) {
                if (eof || (limit = in.read(buf, 0, buf.length)) <= 0) {
                    eof = true;
                    limit = pos = 0;
                    if (!any) return null;
                    break;
                }
                pos = 0;
            }
            any = true;
            byte b = buf[pos++];
            if (b == '\n') break;
            if (n == MAX_LINE) {
                over = true;
                continue;
            }
            if (n == line.length) line = Arrays.copyOf(line, Math.min(MAX_LINE, n * 2));
            line[n++] = b;
        }
        if (over) cut++;
        if (n > 0 && line[n - 1] == '\r') n--;
        try {
            return strict.decode(ByteBuffer.wrap(line, 0, n)).toString();
        } catch (CharacterCodingException e) {
            replaced++;
            return new String(line, 0, n, StandardCharsets.UTF_8); // malformed and unmappable input replaced with U+FFFD
        }
    }

    /** The lines that had bytes that are not UTF-8, read with replacement. */
    long replaced() {
        return replaced;
    }

    /** The lines longer than {@link #MAX_LINE} bytes, cut there. */
    long cut() {
        return cut;
    }

    /** What was tolerated, in words, or null when nothing was. */
    String tolerated() {
        if (replaced == 0 && cut == 0) return null;
        String s = replaced == 0 ? "" : replaced + " lines had bytes that are not UTF-8; read with replacement";
        if (cut > 0) s += (s.isEmpty() ? "" : "; ") + cut + " lines longer than " + MAX_LINE / 1024 + " KiB, cut there";
        return s;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
