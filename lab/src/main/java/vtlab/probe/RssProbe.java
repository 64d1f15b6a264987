package vtlab.probe;

import vtlab.data.Column;
import vtlab.data.Columns;

/** Peak resident memory of the SUT process during the hold (VmRSS), in MB. */
public final class RssProbe implements Probe {
    static final Column RSS_MAX = Columns.RSS_MAX;

    @Override
    public java.util.List<Column> columns() {
        return java.util.List.of(RSS_MAX);
    }

    @Override
    public String name() {
        return "rss";
    }

    /** /proc status of the SUT, read where it runs. */
    @Override
    public boolean remote() {
        return true;
    }

    @Override
    public String description() {
        return "SUT resident set size, max over the hold (rss_mb_max)";
    }

    @Override
    public void sample(ProbeContext ctx, double second, Measurements out) {
        long kb = Proc.statusField(ctx.app(), "VmRSS");
        if (kb < 0) return;
        double mb = Math.round(kb / 102.4) / 10.0;
        out.max(RSS_MAX, mb);
        out.point("rss_mb", second, mb);
    }

    @Override
    public void finish(ProbeContext ctx, Measurements out) {
        long kb = Proc.statusField(ctx.app(), "VmRSS");
        if (kb >= 0) out.max(RSS_MAX, Math.round(kb / 102.4) / 10.0);
    }
}
