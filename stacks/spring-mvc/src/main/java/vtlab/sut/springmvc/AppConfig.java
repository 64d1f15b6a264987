package vtlab.sut.springmvc;

import javax.sql.DataSource;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

@Configuration(proxyBeanMethods = false)
class AppConfig {

    @Bean
    Settings settings() {
        return Settings.fromEnv(System.getenv());
    }

    @Bean
    DownstreamClient downstreamClient(Settings settings) {
        return new DownstreamClient(settings);
    }

    @Bean
    OrderSummaryService orderSummaryService(JdbcTemplate jdbc, DataSource dataSource, DownstreamClient downstream, Settings settings) {
        // Our own transaction manager on the same DataSource: JdbcTemplate joins its transaction through the
        // DataSource, whatever transaction auto-configuration is or is not on the classpath.
        return new OrderSummaryService(jdbc, new TransactionTemplate(new DataSourceTransactionManager(dataSource)), downstream, settings);
    }

    @Bean
    PoolSampler poolSampler(DataSource dataSource) {
        return new PoolSampler((com.zaxxer.hikari.HikariDataSource) dataSource);
    }

    /** The requests' counters, on the platform MBean server for the lab's JMX reads. */
    @Bean
    Requests requests() {
        return new Requests().register();
    }

    @Bean
    RequestGate requestGate(Settings settings, Requests requests) {
        return new RequestGate(settings.concurrencyLimit(), requests);
    }

    /** The gate before every other filter, on every path (it passes the lab's own endpoints itself). */
    @Bean
    FilterRegistrationBean<RequestGate> requestGateRegistration(RequestGate gate) {
        FilterRegistrationBean<RequestGate> r = new FilterRegistrationBean<>(gate);
        r.setName("vtlab-request-gate");
        r.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return r;
    }

    @Bean
    PoolWarmup poolWarmup(DataSource dataSource) {
        return new PoolWarmup(dataSource);
    }
}
