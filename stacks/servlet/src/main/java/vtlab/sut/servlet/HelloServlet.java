package vtlab.sut.servlet;

import java.io.IOException;
import java.io.PrintWriter;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/** The page of Tomcat's HelloWorldExample (about 390 bytes), the article's CPU-light workload. */
public class HelloServlet extends HttpServlet {
    static final String PAGE = """
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

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/html");
        resp.setCharacterEncoding("UTF-8");
        PrintWriter out = resp.getWriter();
        out.print(PAGE);
    }
}
