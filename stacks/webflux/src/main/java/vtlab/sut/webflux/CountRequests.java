package vtlab.sut.webflux;

import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

import reactor.core.publisher.Mono;
import vtlab.sut.kit.RequestCounter;

/**
 * The kit's request counting as a WebFilter: each request by path and by the thread it reaches the server on (an
 * event loop: Netty's), and in flight until its response completes (runtime-info's requests_by_path,
 * requests_by_thread, in_flight_peak).
 */
@Component
class CountRequests implements WebFilter {
    private final RequestCounter counter = RequestCounter.standard();

    RequestCounter counter() {
        return counter;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (!counter.enter(exchange.getRequest().getPath().value())) return chain.filter(exchange);
        return chain.filter(exchange).doFinally(signal -> counter.leave());
    }
}
