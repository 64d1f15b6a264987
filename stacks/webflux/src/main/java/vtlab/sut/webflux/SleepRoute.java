package vtlab.sut.webflux;

import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

import reactor.core.publisher.Mono;

/**
 * GET /sleep?ms=N is the mode's own wait (reactive: Mono.delay, coroutine: the suspend function, virtual-netty:
 * Thread.sleep on a virtual thread), so every stack in the reactive experiment serves the same workload path and the
 * rows compare side by side; runtime-info's thread_mode says which handler it is.
 */
@Component
public class SleepRoute implements WebFilter {
    private final String target;

    SleepRoute(Mode mode) {
        this.target = switch (mode.name()) {
            case "coroutine" -> "/co/delay";
            case "virtual-netty" -> "/vt/sleep";
            default -> "/delay";
        };
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (!"/sleep".equals(exchange.getRequest().getPath().value())) return chain.filter(exchange);
        return chain.filter(exchange.mutate().request(r -> r.path(target)).build());
    }

    String target() {
        return target;
    }
}
