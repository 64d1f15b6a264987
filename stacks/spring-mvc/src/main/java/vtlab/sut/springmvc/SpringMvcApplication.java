package vtlab.sut.springmvc;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The seed rig's system under test (seed 002): one blocking Spring Boot 4 MVC endpoint on Tomcat 11 that looks an
 * order up in PostgreSQL through HikariCP and calls a downstream stub, configured only by environment variables.
 */
@SpringBootApplication
public class SpringMvcApplication {

    public static void main(String[] args) {
        exitWhenParentDies();
        SpringApplication.run(SpringMvcApplication.class, args);
    }

    /** Ends this server if the lab that started it is gone (e.g. killed with SIGKILL), so no JVM is orphaned. */
    static void exitWhenParentDies() {
        String pid = System.getenv("VTLAB_PARENT_PID");
        if (pid == null) return;
        ProcessHandle.of(Long.parseLong(pid)).ifPresentOrElse(
                parent -> parent.onExit().thenRun(() -> Runtime.getRuntime().halt(3)),
                () -> Runtime.getRuntime().halt(3));
    }
}
