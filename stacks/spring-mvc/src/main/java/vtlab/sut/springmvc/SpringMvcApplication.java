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
        vtlab.sut.kit.ParentWatch.exitWhenParentDies();
        SpringApplication.run(SpringMvcApplication.class, args);
    }
}
