package vtlab.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import vtlab.proc.Children;
import vtlab.proc.Env;

/**
 * A generator run as a tracked child process: its command is kept beside its output (raw/STEM.TOOL.cmd and
 * .txt), and the output is parsed by the generator's own parser once the tool exits.
 */
public final class ToolRun implements Generator.RunningLoad {
    public interface Parser {
        LoadResult parse(String text, Path raw) throws Generator.LoadException;
    }

    private final String tool;
    private final Process process;
    private final Path out;
    private final Parser parser;

    public ToolRun(String tool, List<String> cmd, Path rawDir, String stem, Parser parser) throws IOException {
        this(tool, cmd, cmd, Env.NONE, rawDir, stem, parser);
    }

    /**
     * @param shown the command as raw/STEM.TOOL.cmd keeps it (secret header values masked, {@link vtlab.core.Secrets})
     * @param env   added to the tool's environment and written nowhere: secret header values a script reads
     */
    public ToolRun(String tool, List<String> cmd, List<String> shown, Env env, Path rawDir, String stem,
            Parser parser) throws IOException {
        this.tool = tool;
        this.out = rawDir.resolve(stem + "." + tool + ".txt");
        this.parser = parser;
        Files.writeString(rawDir.resolve(stem + "." + tool + ".cmd"), String.join(" ", shown) + "\n");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile());
        pb.environment().putAll(env.asMap());
        this.process = Children.track(pb.start());
    }

    /** A run already started elsewhere (a load agent on its host), its output going to out: waited for and parsed alike. */
    public ToolRun(String tool, Process process, Path out, Parser parser) {
        this.tool = tool;
        this.process = process;
        this.out = out;
        this.parser = parser;
    }

    @Override
    public vtlab.tier.host.TierProcess process() {
        return vtlab.tier.host.TierProcess.local(process.toHandle());
    }

    @Override
    public LoadResult await() throws Generator.LoadException, InterruptedException {
        int code = process.waitFor();
        String text;
        try {
            text = Files.readString(out);
        } catch (IOException e) {
            throw new Generator.LoadException("cannot read " + tool + " output " + out + ": " + e.getMessage());
        }
        if (code != 0) throw new Generator.LoadException(tool + " exited with " + code + ": " + lastLines(text, 3));
        return parser.parse(text, out);
    }

    /** A tool's last n lines of output, joined with " | ": what a failure says of it. */
    public static String lastLines(String text, int n) {
        List<String> lines = text.strip().lines().toList();
        return String.join(" | ", lines.subList(Math.max(0, lines.size() - n), lines.size()));
    }
}
