package vtlab.sut.servlet;

import java.io.IOException;
import java.util.Map;
import java.util.function.Supplier;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import vtlab.sut.kit.Json;

/** Serves a map as JSON (the kit's few lines instead of a JSON library, so the SUT carries nothing but its server). */
public class JsonServlet extends HttpServlet {
    private final Supplier<Map<String, Object>> body;

    public JsonServlet(Supplier<Map<String, Object>> body) {
        this.body = body;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("application/json");
        resp.setCharacterEncoding("UTF-8");
        resp.getWriter().print(Json.write(body.get()));
    }
}
