package vtlab.experiment.ab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.plan.FaultAxis;
import vtlab.plan.Row;
import vtlab.proc.Env;
import vtlab.tier.tool.Jdk;
import vtlab.tier.Tiers;

class DependenciesTest {
    static final Env ENV = new Env(Map.of("DB_URL", "jdbc:postgresql://127.0.0.1:5432/app", "API", "http://10.0.0.7:8081/v1", "MODE", "x"));

    static List<Dependencies.Dependency> parse(String... args) throws UsageError {
        return Dependencies.parse(vtlab.cli.Main.parse(List.of(args)), ENV);
    }

    @Test
    void aDependencyTakesTheSettingsThatHoldItsAddress() throws Exception {
        List<Dependencies.Dependency> d = parse("--dependency", "orders-db=127.0.0.1:5432", "--dependency", "api=10.0.0.7:8081");
        assertEquals(2, d.size());
        assertEquals(Env.NONE.with("DB_URL", "jdbc:postgresql://127.0.0.1:5432/app"), d.getFirst().env());
        assertEquals("10.0.0.7:8081", d.get(1).endpoint());
        assertEquals(List.of(), parse(), "no --dependency, no proxy");
    }

    @Test
    void refusedInOneLine() {
        assertTrue(assertThrows(UsageError.class, () -> parse("--dependency", "orders-db")).getMessage().contains("write NAME=host:port"));
        assertTrue(assertThrows(UsageError.class, () -> parse("--dependency", "db=127.0.0.1:5432")).getMessage().contains("one of the lab's own tiers"));
        assertTrue(assertThrows(UsageError.class, () -> parse("--dependency", "cache=127.0.0.1:6379")).getMessage()
                .contains("no --env of the service holds 127.0.0.1:6379"));
        assertTrue(assertThrows(UsageError.class, () -> parse("--dependency", "a=127.0.0.1:5432", "--dependency", "a=10.0.0.7:8081"))
                .getMessage().contains("given twice"));
    }

    @Test
    void rowsGetTheDependencyThenTheProxyAndFaultsNameIt() throws Exception {
        List<Dependencies.Dependency> d = parse("--dependency", "orders-db=127.0.0.1:5432");
        Dependencies.register(d);
        assertEquals("orders-db", Tiers.create("orders-db").name());
        Row r = Row.builder().experiment("ab").stack("svc").threadMode("virtual").workload("/x").concurrency(10).rep(1)
                .jdk(Jdk.current()).sutEnv(ENV).warmup(Duration.ofSeconds(1)).hold(Duration.ofSeconds(30)).build();
        Row with = Dependencies.withDependencies(r, d);
        assertEquals(List.of("orders-db", "toxiproxy"), with.tiers());
        Row faulted = FaultAxis.apply(List.of(with), List.of("orders-db:latency=500ms@5s-10s")).getFirst();
        assertEquals("orders-db:latency=500ms@5s-10s", faulted.params().get("fault"));
        assertThrows(UsageError.class, () -> FaultAxis.apply(List.of(with), List.of("api:down@5s-10s")), "a dependency it does not have");
    }
}
