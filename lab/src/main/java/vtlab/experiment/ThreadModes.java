package vtlab.experiment;

import java.util.List;

import vtlab.core.Opt;

/** The thread modes the experiments compare and their --modes option, declared once (help per experiment). */
public final class ThreadModes {
    public static final List<String> ALL = List.of("platform", "virtual");
    public static final Opt OPTION = Opt.of("modes", String.join(",", ALL), "thread mode");

    private ThreadModes() {}
}
