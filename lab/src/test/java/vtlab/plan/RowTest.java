package vtlab.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import vtlab.proc.ContainerLimits;
import vtlab.proc.Env;
import vtlab.stack.Params;
import vtlab.tier.tool.Jdk;

/** A row made by its builder: the defaults of the components not given, a row's builder, the required components. */
class RowTest {
    static Row.Builder required() {
        return Row.builder().experiment("servlet").stack("servlet").threadMode("virtual").workload("sleep").concurrency(200)
                .rep(1).jdk(Jdk.current()).warmup(Duration.ofSeconds(5)).hold(Duration.ofSeconds(30));
    }

    @Test
    void whatIsNotGivenIsNone() {
        Row r = required().build();
        assertEquals(List.of("servlet", "servlet", "virtual", "sleep", 200, 1), List.of(r.experiment(), r.stack(), r.threadMode(),
                r.workload(), r.concurrency(), r.rep()));
        assertNull(r.hikariPool());
        assertNull(r.pathMode());
        assertNull(r.connMode());
        assertNull(r.boundRps());
        assertNull(r.boundNote());
        assertNull(r.rate());
        assertEquals(false, r.open());
        assertEquals(List.of(Params.NONE, Env.NONE, Map.of()), List.of(r.params(), r.sutEnv(), r.expectInfo()));
        assertEquals(List.of(List.of(), List.of(), List.of(), List.of()), List.of(r.tiers(), r.jvmArgs(), r.appArgs(), r.faults()));
        assertEquals(ContainerLimits.NONE, r.limits());
        assertEquals(ContainerLimits.NONE, required().limits(null).build().limits(), "null limits: none, as the record has it");
    }

    @Test
    void aRowsBuilderMakesTheSameRowAndChangesOnlyWhatItIsGiven() {
        Row r = required().hikariPool(50).pathMode("jdbc").connMode("pooled").params(Params.NONE.with("sleepMs", "50"))
                .sutEnv(Env.NONE.with("VT", "true")).expectInfo(Map.of("virtual", true)).boundRps(4000.0).boundNote("200 / 50 ms")
                .tiers(List.of("pg")).jvmArgs(List.of("-Xmx512m")).rate(1000.0).appArgs(List.of("--x"))
                .limits(new ContainerLimits(0.5, null)).build();
        assertEquals(r, r.toBuilder().build());
        Row other = r.toBuilder().workload("hello").build();
        assertEquals("hello", other.workload());
        assertEquals(r, other.toBuilder().workload("sleep").build());
        assertEquals(r.withHold(Duration.ofSeconds(60)), r.toBuilder().hold(Duration.ofSeconds(60)).build());
    }

    @Test
    void aRowNeedsItsRequiredComponentsAndARateAboveZero() {
        NullPointerException e = assertThrows(NullPointerException.class, () -> Row.builder().experiment("x").stack("s")
                .threadMode("virtual").workload("sleep").rep(1).jdk(Jdk.current()).warmup(Duration.ZERO).hold(Duration.ZERO).build());
        assertEquals("a row needs its concurrency", e.getMessage());
        assertEquals("a row needs its jdk", assertThrows(NullPointerException.class, () -> required().jdk(null).build()).getMessage());
        assertThrows(IllegalArgumentException.class, () -> required().rate(0.0).build(), "the record's own check");
    }

    /** Rows are made by name: no source but Row's calls its 23-component constructor positionally. */
    @Test
    void noSourceButRowCallsItsConstructor() throws IOException {
        Path lab = Path.of(System.getProperty("vtlab.home", "..")).resolve("lab/src");
        try (Stream<Path> files = Files.walk(lab)) {
            List<Path> calling = files.filter(p -> p.toString().endsWith(".java") && !p.endsWith(Path.of("vtlab/plan/Row.java")))
                    .filter(p -> {
                        try {
                            return Files.readString(p).matches("(?s).*\\bnew (vtlab\\.plan\\.)?Row\\(.*");
                        } catch (IOException ex) {
                            throw new java.io.UncheckedIOException(ex);
                        }
                    }).toList();
            assertTrue(calling.isEmpty(), "Row's constructor called outside Row (use Row.builder()): " + calling);
        }
    }
}
