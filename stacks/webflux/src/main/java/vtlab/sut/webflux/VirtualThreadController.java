package vtlab.sut.webflux;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * Plain blocking code (Thread.sleep, a String return) behind Reactor Netty. With THREAD_MODE=virtual-netty WebFlux
 * calls it on a virtual thread ({@link VirtualNettyConfig}); otherwise it would block an event loop, so it refuses.
 */
@RestController
public class VirtualThreadController {

    @GetMapping("/vt/sleep")
    public String sleep(@RequestParam(name = "ms", defaultValue = "100") long ms) throws InterruptedException {
        ReactiveController.checkMs(ms);
        Thread t = Thread.currentThread();
        if (!t.isVirtual()) {
            throw new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE,
                    "blocking handler would run on " + t.getName() + ": start with THREAD_MODE=virtual-netty");
        }
        Thread.sleep(ms);
        return "slept " + ms + " ms on a virtual thread\n";
    }
}
