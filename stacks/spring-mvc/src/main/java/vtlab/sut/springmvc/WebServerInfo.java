package vtlab.sut.springmvc;

import java.util.Map;

import org.springframework.boot.web.server.WebServer;
import org.springframework.core.env.Environment;

/**
 * The web server's part of runtime-info, read back from the live server whichever starter the jar was built with:
 * Tomcat (spring-mvc, spring-boot-starter-tomcat) or Jetty (spring-jetty, the starter swapped for
 * spring-boot-starter-jetty). Each server's reader is compiled into its own jar only ({@link TomcatInfo} into
 * spring-mvc's, JettyInfo into spring-jetty's: each pom excludes the other's source), so neither jar carries the other
 * server, and this class finds the reader by name.
 */
final class WebServerInfo {
    static final String TOMCAT = "org.springframework.boot.tomcat.TomcatWebServer", JETTY = "org.springframework.boot.jetty.JettyWebServer";

    private WebServerInfo() {}

    /** The stack this jar is: spring-mvc on Tomcat, spring-jetty on Jetty. */
    static String stack(WebServer server) {
        return is(server, JETTY) ? "spring-jetty" : "spring-mvc";
    }

    /** Whether the server is of that class or a subclass (Boot's servlet servers extend TomcatWebServer, JettyWebServer). */
    static boolean is(WebServer server, String className) {
        for (Class<?> c = server.getClass(); c != null; c = c.getSuperclass()) if (c.getName().equals(className)) return true;
        return false;
    }

    /**
     * thread_mode, the request pool (executor_class, max_threads: null where no pool bounds the requests), the
     * connection cap (max_connections) and the server's version, as the running server has them.
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> of(WebServer server, Environment env) {
        String name = server.getClass().getName();
        String reader = is(server, TOMCAT) ? "TomcatInfo" : is(server, JETTY) ? "JettyInfo" : null;
        if (reader == null) throw new IllegalStateException("runtime-info knows Tomcat and Jetty, not " + name);
        try {
            return (Map<String, Object>) Class.forName(WebServerInfo.class.getPackageName() + "." + reader)
                    .getDeclaredMethod("of", WebServer.class, Environment.class).invoke(null, server, env);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("this jar has no " + reader + " for its " + name + ": " + e, e);
        }
    }
}
