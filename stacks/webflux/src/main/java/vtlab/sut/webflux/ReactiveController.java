package vtlab.sut.webflux;

import java.time.Duration;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import reactor.core.publisher.Mono;

/** Seed 004's WebFlux handler: wait with Mono.delay (a timer on Reactor's parallel scheduler), no thread held. */
@RestController
public class ReactiveController {

    /** The article's hello page (the kit's, the bytes every server sends), answered on the event loop. */
    @GetMapping(path = "/hello", produces = "text/html;charset=UTF-8")
    public Mono<String> hello() {
        return Mono.just(vtlab.sut.kit.Article.HELLO_PAGE);
    }

    @GetMapping("/delay")
    public Mono<String> delay(@RequestParam(name = "ms", defaultValue = "100") long ms) {
        checkMs(ms);
        return Mono.delay(Duration.ofMillis(ms)).map(tick -> "mono delayed " + ms + " ms\n");
    }

    /** The same bounds as the servlet stack's sleep: a wait of 0 to 60,000 ms. */
    static void checkMs(long ms) {
        if (ms < 0 || ms > 60_000) throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "ms must be between 0 and 60000");
    }
}
