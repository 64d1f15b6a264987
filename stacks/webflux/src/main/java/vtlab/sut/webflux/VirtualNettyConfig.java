package vtlab.sut.webflux;

import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.VirtualThreadTaskExecutor;
import org.springframework.web.reactive.config.BlockingExecutionConfigurer;
import org.springframework.web.reactive.config.WebFluxConfigurer;

/**
 * Virtual threads on a Netty server (the loom-netty approach of loom-webflux-benchmarks): WebFlux's blocking
 * execution (Spring 6.1+) hands the blocking controller's calls to a virtual-thread-per-task executor, so Thread.sleep
 * parks a virtual thread instead of an event loop. Only in THREAD_MODE=virtual-netty, and only for
 * {@link VirtualThreadController}: the other endpoints stay on the event loop.
 */
@Configuration(proxyBeanMethods = false)
public class VirtualNettyConfig implements WebFluxConfigurer {
    static final String THREAD_PREFIX = "vt-netty-";
    private final VirtualThreadTaskExecutor executor;

    VirtualNettyConfig(Mode mode) {
        this.executor = mode.virtualNetty() ? new VirtualThreadTaskExecutor(THREAD_PREFIX) : null;
    }

    @Override
    public void configureBlockingExecution(BlockingExecutionConfigurer configurer) {
        if (executor == null) return;
        configurer.setExecutor(executor);
        configurer.setControllerMethodPredicate(m -> m.getBeanType() == VirtualThreadController.class);
    }

    /** The executor handed to WebFlux, or null when blocking handlers would run on the event loop (and are refused). */
    String executorName() {
        return executor == null ? null : executor.getClass().getSimpleName();
    }
}
