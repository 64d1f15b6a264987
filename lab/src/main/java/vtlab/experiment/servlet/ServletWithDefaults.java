package vtlab.experiment.servlet;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.plan.Experiment;
import vtlab.plan.PlanContext;
import vtlab.plan.Row;

/**
 * An experiment on the servlet experiment's rows under other defaults (footprint, probe-cost): it declares the
 * servlet options re-defaulted, so the servlet spec parses them and no second reading of them exists.
 */
abstract class ServletWithDefaults implements Experiment {
    private final ServletExperiment servlet = new ServletExperiment();
    private final Map<String, String> defaults;
    private final List<Opt> own;
    private final List<String> intro;

    /** own: options besides the servlet ones (shown first); intro: help lines above them. */
    ServletWithDefaults(Map<String, String> defaults, List<Opt> own, List<String> intro) {
        this.defaults = defaults;
        this.own = own;
        this.intro = intro;
    }

    @Override
    public final List<Opt> options() {
        List<Opt> a = new ArrayList<>(own);
        a.addAll(ServletExperiment.options(defaults));
        return a;
    }

    @Override
    public final List<String> axes() {
        List<String> a = new ArrayList<>(intro);
        a.addAll(Experiment.super.axes());
        return a;
    }

    /** The servlet experiment's rows under these defaults. */
    final List<Row> servletRows(Options o, PlanContext ctx) throws UsageError {
        return servlet.planWithDefaults(o, ctx, defaults);
    }
}
