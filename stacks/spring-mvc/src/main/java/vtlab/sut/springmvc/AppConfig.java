package vtlab.sut.springmvc;

import javax.sql.DataSource;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
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

    @Bean
    PoolWarmup poolWarmup(DataSource dataSource) {
        return new PoolWarmup(dataSource);
    }
}
