package vtlab.sut.servlet;

import org.apache.catalina.Context;
import org.apache.catalina.Wrapper;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

/** Seed 003's I/O endpoints: request-body counting, response sizes, and the blocking vs async downstream call. */
final class IoEndpoints {
    private IoEndpoints() {}

    static void addTo(Context ctx, Connector connector, String stubUrl) {
        Tomcat.addServlet(ctx, "count", new CountServlet());
        ctx.addServletMappingDecoded("/count", "count");
        async(Tomcat.addServlet(ctx, "count-async", new CountAsyncServlet()));
        ctx.addServletMappingDecoded("/count-async", "count-async");
        Tomcat.addServlet(ctx, "bytes", new BytesServlet());
        ctx.addServletMappingDecoded("/bytes", "bytes");
        Downstream downstream = new Downstream(stubUrl, connector::getLocalPort);
        Tomcat.addServlet(ctx, "call", new CallServlet(downstream));
        ctx.addServletMappingDecoded("/call", "call");
        async(Tomcat.addServlet(ctx, "call-async", new CallAsyncServlet(downstream)));
        ctx.addServletMappingDecoded("/call-async", "call-async");
    }

    private static void async(Wrapper w) {
        w.setAsyncSupported(true);
    }
}
