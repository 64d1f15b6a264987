package vtlab.report;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringReader;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import one.convert.Arguments;
import one.convert.FlameGraph;
import vtlab.data.Columns;
import vtlab.data.DataRow;
import vtlab.data.Grouping;

/**
 * What changed between platform and virtual threads for the same scenario, as a differential flame graph: each
 * non-platform row's flame graph (the profile probe's, in raw/) coloured against its scenario's platform row of the same
 * rep, by async-profiler's own converter (jfr-converter's diff: red frames took a larger share of the samples than in
 * platform's, blue a smaller one, yellow frames platform never had). The graph keeps the compared row's shape; both
 * are wall-clock profiles of the same hold length, but a mode with more threads has more samples, so the diff is of
 * shares: the baseline is scaled to the compared row's total before the converter subtracts.
 */
final class FlameDiffs {
    private FlameDiffs() {}

    static final String PREFIX = "flame-diff-";

    /** A differential flame graph of row {@code row} against row {@code baseline}, in charts/. */
    record Diff(int row, int baseline, String file) {}

    /**
     * Writes one differential flame graph per non-platform row that has a flame graph and a platform row of its
     * scenario with one; an earlier report's go first, so charts/ matches the rows. The rows they were made for, by
     * row number.
     */
    static Map<Integer, Diff> write(RunData data) throws IOException {
        Path charts = data.dir().resolve("charts");
        Report.clear(charts, n -> n.startsWith(PREFIX));
        Map<Integer, Diff> out = new LinkedHashMap<>();
        for (Map.Entry<DataRow, DataRow> pair : pairs(data.rows()).entrySet()) {
            DataRow row = pair.getKey(), base = pair.getValue();
            int k = data.index(row), b = data.index(base);
            Path a = data.dir().resolve("raw").resolve(base.text(Columns.PROFILE_FLAME)), z = data.dir().resolve("raw").resolve(row.text(Columns.PROFILE_FLAME));
            if (!Files.isRegularFile(a) || !Files.isRegularFile(z)) continue; // a report of a copied run folder without raw/
            String file = PREFIX + k + "-vs-" + b + ".html";
            Files.createDirectories(charts);
            write(a, z, charts.resolve(file), "row " + k + " (" + Grouping.variant(row) + ") against row " + b + " (" + Grouping.variant(base)
                    + "), " + Grouping.comparisonLabel(Grouping.comparison(row)) + ": red a larger share of the samples, blue a smaller one, yellow new");
            out.put(k, new Diff(k, b, file));
        }
        return out;
    }

    /**
     * Each non-platform row with a flame graph, with the platform row of its scenario it is compared with: the same rep
     * where there is one, else the scenario's first platform row with a flame graph.
     */
    static Map<DataRow, DataRow> pairs(List<DataRow> rows) {
        Map<String, List<DataRow>> byScenario = new LinkedHashMap<>();
        for (DataRow r : rows) {
            if (r.has(Columns.PROFILE_FLAME)) byScenario.computeIfAbsent(Grouping.comparison(r), x -> new ArrayList<>()).add(r);
        }
        Map<DataRow, DataRow> out = new LinkedHashMap<>();
        byScenario.values().forEach(scenario -> {
            List<DataRow> platform = scenario.stream().filter(FlameDiffs::platform).toList();
            if (platform.isEmpty()) return;
            for (DataRow r : scenario) {
                if (platform(r)) continue;
                out.put(r, platform.stream().filter(p -> p.text(Columns.REP).equals(r.text(Columns.REP))).findFirst()
                        .orElse(platform.getFirst()));
            }
        });
        return out;
    }

    private static boolean platform(DataRow r) {
        return Grouping.variant(r).startsWith(Grouping.PLATFORM);
    }

    /**
     * The converter's own differential graph: {@code compared}'s shape and sample counts, each frame coloured by the
     * change of its share of the samples against {@code baseline}. The converter's diff subtracts raw counts (a row with
     * twice the samples would look hotter everywhere), so both profiles go through its collapsed form first and the
     * baseline's counts are scaled to the compared profile's total: the same shape at any number of samples differs by
     * nothing, and each frame's change is a difference of shares, in the compared row's samples.
     */
    static void write(Path baseline, Path compared, Path out, String title) throws IOException {
        List<Collapsed> after = collapsed(compared), before = collapsed(baseline);
        FlameGraph graph = new FlameGraph(new Arguments("--diff", "--title", title)), base = new FlameGraph(new Arguments());
        graph.parseCollapsed(new StringReader(lines(after)));
        base.parseCollapsed(new StringReader(lines(scaled(before, total(after)))));
        graph.diff(base);
        try (OutputStream o = Files.newOutputStream(out)) {
            graph.dump(o);
        }
    }

    /** One stack of a collapsed profile and its samples. */
    record Collapsed(String frames, long samples) {}

    /** A flame graph (async-profiler's HTML, or collapsed stacks) in the converter's collapsed form, stack by stack. */
    static List<Collapsed> collapsed(Path profile) throws IOException {
        Arguments args = new Arguments();
        args.output = "collapsed";
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        FlameGraph.parse(profile.toString(), args).dump(text);
        List<Collapsed> out = new ArrayList<>();
        for (String line : text.toString(StandardCharsets.UTF_8).split("\n")) {
            int space = line.lastIndexOf(' ');
            if (space > 0) out.add(new Collapsed(line.substring(0, space), Long.parseLong(line.substring(space + 1))));
        }
        return out;
    }

    static long total(List<Collapsed> stacks) {
        return stacks.stream().mapToLong(Collapsed::samples).sum();
    }

    /**
     * The stacks with their samples scaled to {@code total} (rounded to the nearest sample: exact where the shares are
     * the same). A stack that rounds to no sample stays, with 0: its frames are still the baseline's, not new.
     */
    static List<Collapsed> scaled(List<Collapsed> stacks, long total) {
        long from = total(stacks);
        if (from == 0) return stacks;
        BigInteger to = BigInteger.valueOf(total), of = BigInteger.valueOf(from), twice = BigInteger.TWO;
        return stacks.stream().map(s -> new Collapsed(s.frames(), BigInteger.valueOf(s.samples()).multiply(to).multiply(twice).add(of)
                .divide(of.multiply(twice)).longValueExact())).toList();
    }

    private static String lines(List<Collapsed> stacks) {
        StringBuilder b = new StringBuilder();
        stacks.forEach(s -> b.append(s.frames()).append(' ').append(s.samples()).append('\n'));
        return b.toString();
    }
}
