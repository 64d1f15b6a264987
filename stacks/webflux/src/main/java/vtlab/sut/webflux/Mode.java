package vtlab.sut.webflux;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/** The variant this server runs as, from THREAD_MODE (an environment variable or a property); refused when unknown. */
@Component
public class Mode {
    private final String name;

    Mode(@Value("${THREAD_MODE:reactive}") String name) {
        if (!WebfluxApplication.MODES.contains(name)) {
            throw new IllegalArgumentException("THREAD_MODE must be one of " + WebfluxApplication.MODES + ", not " + name);
        }
        this.name = name;
    }

    public String name() {
        return name;
    }

    public boolean virtualNetty() {
        return name.equals("virtual-netty");
    }
}
