package vtlab.sut.springmvc;

import java.util.Map;

/**
 * The request path's switches, from the environment (the Tomcat, pool and thread switches are Spring properties,
 * see application.properties).
 *
 * @param connMode          released: the connection goes back to the pool after the query, before the downstream
 *                          call; held: query and call run in one transaction, so the connection stays checked out
 * @param pathMode          normal, or synchronized: the blocking section runs inside a striped monitor (pinning check),
 *                          or control: it runs inside the pinning positive control (pins on every JDK)
 * @param syncStripes       how many monitors the synchronized path spreads ids over
 * @param stubUrl           the downstream's base URL
 * @param downstreamDelayMs the delay asked of the stub per call
 * @param downstreamClient  jdk (java.net.http.HttpClient, the default) or urlconnection (HttpURLConnection, blocking
 *                          I/O on the request's own thread, keep-alive cache raised to the connector's size)
 * @param downstreamHttp    http1 (a connection per call in flight: two sockets per client connection) or h2c
 *                          (HTTP/2 by upgrade, calls multiplexed on one connection; jdk client only)
 * @param concurrencyLimit  at most this many requests in the handlers at once, the rest answered 503 (see
 *                          {@link RequestGate}); 0: no limit
 */
public record Settings(String connMode, String pathMode, int syncStripes, String stubUrl, long downstreamDelayMs,
                       String downstreamClient, String downstreamHttp, int concurrencyLimit) {

    public static Settings fromEnv(Map<String, String> env) {
        String conn = env.getOrDefault("CONN_MODE", "released");
        if (!conn.equals("released") && !conn.equals("held")) {
            throw new IllegalArgumentException("CONN_MODE must be released or held, not " + conn);
        }
        String path = env.getOrDefault("PATH_MODE", "normal");
        if (!path.equals("normal") && !path.equals("synchronized") && !path.equals("control")) {
            throw new IllegalArgumentException("PATH_MODE must be normal, synchronized or control, not " + path);
        }
        int stripes = intEnv(env, "SYNC_STRIPES", 4096);
        if (stripes < 1) throw new IllegalArgumentException("SYNC_STRIPES must be positive, not " + stripes);
        String stub = env.getOrDefault("STUB_URL", "http://127.0.0.1:8081");
        while (stub.endsWith("/")) stub = stub.substring(0, stub.length() - 1);
        String client = env.getOrDefault("DOWNSTREAM_CLIENT", "jdk");
        if (!client.equals("jdk") && !client.equals("urlconnection")) {
            throw new IllegalArgumentException("DOWNSTREAM_CLIENT must be jdk or urlconnection, not " + client);
        }
        String http = env.getOrDefault("DOWNSTREAM_HTTP", "http1");
        if (!http.equals("http1") && !http.equals("h2c")) {
            throw new IllegalArgumentException("DOWNSTREAM_HTTP must be http1 or h2c, not " + http);
        }
        if (http.equals("h2c") && !client.equals("jdk")) {
            throw new IllegalArgumentException("DOWNSTREAM_HTTP=h2c needs DOWNSTREAM_CLIENT=jdk (HttpURLConnection speaks HTTP/1.1 only)");
        }
        int limit = intEnv(env, "CONCURRENCY_LIMIT", 0);
        if (limit < 0) throw new IllegalArgumentException("CONCURRENCY_LIMIT must be 0 (off) or positive, not " + limit);
        return new Settings(conn, path, stripes, stub, intEnv(env, "DOWNSTREAM_DELAY_MS", 100), client, http, limit);
    }

    public boolean held() {
        return connMode.equals("held");
    }

    public boolean synchronizedPath() {
        return pathMode.equals("synchronized");
    }

    private static int intEnv(Map<String, String> env, String key, int dflt) {
        String v = env.get(key);
        return v == null || v.isBlank() ? dflt : Integer.parseInt(v.trim());
    }
}
