package vtlab.sut.kit;

/**
 * The article's two endpoints as every server serves them, so Tomcat, Jetty, Helidon and Netty answer the same bytes:
 * /hello, the page of Tomcat's HelloWorldExample (about 390 bytes, CPU-light), and /sleep?ms=, Thread.sleep on the
 * request's thread then a short text.
 */
public final class Article {
    /** /hello's body (text/html, UTF-8). */
    public static final String HELLO_PAGE = """
            <!DOCTYPE html><html>
            <head>
            <meta charset="UTF-8" />
            <title>Hello World!</title>
            </head>
            <body bgcolor="white">
            <a href="../helloworld.html"><img src="../images/code.gif" height=24 width=24 align=right border=0 alt="view code"></a>
            <a href="../index.html"><img src="../images/return.gif" height=24 width=24 align=right border=0 alt="return"></a>
            <h1>Hello World!</h1>
            </body>
            </html>
            """;
    /** The longest sleep /sleep takes. */
    public static final long MAX_SLEEP_MS = 60_000;

    private Article() {}

    /**
     * /sleep's ms parameter: dflt without one; a bad one is refused with the message a 400 carries.
     *
     * @throws IllegalArgumentException for a value that is not a whole number of ms in [0, max]
     */
    public static long millis(String param, long dflt, long max) {
        if (param == null) return dflt;
        long ms;
        try {
            ms = Long.parseLong(param);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("ms must be a whole number of milliseconds");
        }
        if (ms < 0 || ms > max) throw new IllegalArgumentException("ms must be between 0 and " + max);
        return ms;
    }

    /** /sleep's body after sleeping ms. */
    public static String slept(long ms) {
        return "slept " + ms + " ms\n";
    }
}
