package vtlab.experiment.jmh;


import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import vtlab.data.DataRow;
import vtlab.data.StudyColumns;
import vtlab.core.Options;

/**
 * The article's ThreadsBenchmark (seed 000) in JMH: Blackhole.consumeCPU(1024) inline, in a new platform thread and
 * in a new virtual thread. The article: 0.002 / 0.037 / 0.005 ms per op, "a virtual thread is 15 times cheaper to
 * create than a platform thread".
 */
public final class ThreadCostStudy extends JmhStudy {
    @Override
    public String name() {
        return "thread-cost";
    }

    @Override
    public String summary() {
        return "JMH (seed 000): cost of starting and joining a platform vs a virtual thread around Blackhole.consumeCPU(1024)";
    }

    @Override
    public List<String> axes() {
        List<String> a = new ArrayList<>(List.of("computeInMainThread, computeInPlatformThread, computeInVirtualThread (us/op) -> jmh.csv"));
        a.addAll(super.axes());
        return a;
    }

    @Override
    protected String include() {
        return "vtlab\\.bench\\.ThreadCostBenchmark\\.";
    }

    @Override
    protected int benchmarkCount(Options o) {
        return 3;
    }

    @Override
    protected List<String> jmhParams(Options o) {
        return List.of();
    }

    @Override
    protected List<String> statements(List<DataRow> rows) {
        Optional<DataRow> main = byMethod(rows, "computeInMainThread");
        Optional<DataRow> platform = byMethod(rows, "computeInPlatformThread");
        Optional<DataRow> virtual = byMethod(rows, "computeInVirtualThread");
        if (platform.isEmpty() || virtual.isEmpty()) return List.of("thread-cost: no platform/virtual results in jmh.csv");
        DataRow p = platform.get(), v = virtual.get();
        double ps = p.num(StudyColumns.SCORE), vs = v.num(StudyColumns.SCORE);
        List<String> out = new ArrayList<>();
        String verdict = vs < ps ? "cheaper" : "NOT cheaper";
        out.add(String.format("a virtual thread starts (and joins) %s %s than a platform one: %s vs %s (computeInVirtualThread vs "
                + "computeInPlatformThread)%s", ratio(vs < ps ? ps / vs : vs / ps), verdict, scoreText(v), scoreText(p),
                distinct(p, v) ? "" : "; the error bars overlap: run longer (or without --quick) to tell them apart"));
        main.ifPresent(m -> {
            double ms = m.num(StudyColumns.SCORE);
            double pOver = ps - ms, vOver = vs - ms;
            out.add(String.format("the work alone (computeInMainThread) takes %s, so the thread itself costs %s us (platform) vs %s us "
                    + "(virtual)%s", scoreText(m), fmt(pOver), fmt(vOver),
                    pOver > 0 && vOver > 0 ? ": " + ratio(pOver / vOver) + " less for a virtual thread" : ""));
        });
        out.add("seed 000 (the article, JDK 21): 0.002 / 0.037 / 0.005 ms/op (main / platform / virtual), \"15 times cheaper\"; "
                + "absolute figures depend on the machine, the ratio is the claim");
        return out;
    }

    private static Optional<DataRow> byMethod(List<DataRow> rows, String method) {
        return rows.stream().filter(r -> method.equals(r.text(StudyColumns.METHOD))).findFirst();
    }
}
