package vtlab.sut.springmvc;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * The blocking RestClient call to the stub. The HTTP library is chosen here, not by classpath detection: Spring
 * would pick Apache HttpClient 5 (5 connections per route) or Reactor Netty (a bounded pool) when present, either of
 * which silently caps how many calls are in flight. Both libraries offered here open a connection per concurrent
 * call and have no limit on calls in flight:
 * <ul>
 * <li>jdk: java.net.http.HttpClient (jdk.httpclient.connectionPoolSize=0: every connection is kept);</li>
 * <li>urlconnection: HttpURLConnection, blocking I/O on the request's own thread; its keep-alive cache (5 idle
 * connections per host by default, beyond which connections are closed, not refused) is raised to
 * {@link #KEEP_ALIVE_CONNECTIONS} so connections are reused rather than reopened.</li>
 * </ul>
 */
public final class DownstreamClient {
    private static final ParameterizedTypeReference<Map<String, Object>> JSON_MAP = new ParameterizedTypeReference<>() {};
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    static final Duration READ_TIMEOUT = Duration.ofSeconds(30);
    static final int KEEP_ALIVE_CONNECTIONS = 20_000;

    private final RestClient client;
    private final String url;
    private final String library;
    private final HttpClient jdkClient;
    private final boolean h2c;
    private volatile String negotiated;

    public DownstreamClient(Settings s) {
        ClientHttpRequestFactory factory;
        if (s.downstreamClient().equals("urlconnection")) {
            // read once, when the JDK's keep-alive cache class initialises: before the first call
            System.setProperty("http.maxConnections", Integer.toString(KEEP_ALIVE_CONNECTIONS));
            SimpleClientHttpRequestFactory f = new SimpleClientHttpRequestFactory();
            f.setConnectTimeout(CONNECT_TIMEOUT);
            f.setReadTimeout(READ_TIMEOUT);
            factory = f;
            library = "java.net.HttpURLConnection";
            jdkClient = null;
        } else {
            // http1: no upgrade attempt on every new connection; h2c: one upgrade, then every call multiplexed
            HttpClient http = HttpClient.newBuilder().version(s.downstreamHttp().equals("h2c") ? HttpClient.Version.HTTP_2
                    : HttpClient.Version.HTTP_1_1).connectTimeout(CONNECT_TIMEOUT).build();
            jdkClient = http;
            JdkClientHttpRequestFactory f = new JdkClientHttpRequestFactory(http);
            f.setReadTimeout(READ_TIMEOUT);
            factory = f;
            library = HttpClient.class.getName();
        }
        this.h2c = s.downstreamHttp().equals("h2c");
        this.client = RestClient.builder().requestFactory(factory).build();
        this.url = s.stubUrl() + "/delay?ms=" + s.downstreamDelayMs();
    }

    public Map<String, Object> call() {
        return client.get().uri(url).retrieve().body(JSON_MAP);
    }

    /** What runtime-info reports about the client: its library and every limit it has. */
    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("downstream_url", url);
        m.put("downstream_client", "RestClient");
        boolean jdk = library.equals(HttpClient.class.getName());
        m.put("downstream_request_factory", (jdk ? JdkClientHttpRequestFactory.class : SimpleClientHttpRequestFactory.class).getName());
        m.put("downstream_http_library", library);
        m.put("downstream_http_version", h2c ? "HTTP_2 (h2c)" : "HTTP_1_1");
        m.put("downstream_negotiated", negotiated());
        m.put("downstream_max_connections", "unbounded"); // neither library refuses or queues a call for lack of a connection
        m.put("downstream_sockets_per_call", h2c ? "shared (multiplexed)" : "one per call in flight");
        if (jdk) {
            long poolSize = Long.getLong("jdk.httpclient.connectionPoolSize", 0);
            m.put("downstream_keepalive_pool", poolSize == 0 ? "unbounded" : poolSize);
            m.put("downstream_keepalive_s", Long.getLong("jdk.httpclient.keepalive.timeout", 30));
        } else {
            m.put("downstream_keepalive_pool", Integer.getInteger("http.maxConnections", 5));
        }
        m.put("downstream_connect_timeout_ms", CONNECT_TIMEOUT.toMillis());
        m.put("downstream_read_timeout_ms", READ_TIMEOUT.toMillis());
        m.put("apache_httpclient_on_classpath", present("org.apache.hc.client5.http.classic.HttpClient"));
        m.put("reactor_netty_on_classpath", present("reactor.netty.http.client.HttpClient"));
        m.put("webflux_on_classpath", present("org.springframework.web.reactive.DispatcherHandler"));
        return m;
    }

    /** The protocol the stub really answered with (h2c falls back to HTTP/1.1 silently if the stub refuses it). */
    String negotiated() {
        if (negotiated != null || jdkClient == null) return negotiated == null ? "HTTP_1_1" : negotiated;
        try {
            java.net.http.HttpResponse<Void> r = jdkClient.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(url))
                    .timeout(READ_TIMEOUT).build(), java.net.http.HttpResponse.BodyHandlers.discarding());
            negotiated = r.version().name();
        } catch (java.io.IOException e) {
            return "unknown (" + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
        return negotiated;
    }

    static boolean present(String className) {
        try {
            Class.forName(className, false, DownstreamClient.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
