package vtlab.sut.servlet;

import java.io.IOException;
import java.io.PrintWriter;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/** The page of Tomcat's HelloWorldExample (about 390 bytes), the article's CPU-light workload. */
public class HelloServlet extends HttpServlet {
    static final String PAGE = vtlab.sut.kit.Article.HELLO_PAGE;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/html");
        resp.setCharacterEncoding("UTF-8");
        PrintWriter out = resp.getWriter();
        out.print(PAGE);
    }
}
