package vtlab.cli;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import vtlab.core.Options;
import vtlab.core.UsageError;

/**
 * ./vtlab init --app JAR | --cmd "..." | --stack NAME [--out FILE]: writes a commented starting scenario file
 * (docs/scenarios.md) for that service: every key with its default, one request, the thresholds commented out.
 */
final class InitCommand implements Command {
    static final String USAGE = "./vtlab init --app JAR | --cmd \"...\" | --stack NAME [--out scenario.toml]";

    @Override
    public String name() {
        return "init";
    }

    @Override
    public int run(Options o, List<String> args, PrintStream out) throws Exception {
        if (!args.isEmpty()) throw new UsageError("init takes options only, not '" + args.getFirst() + "' (" + USAGE + ")");
        List<String> unknown = o.unknown(java.util.Set.of("app", "cmd", "stack", "out"));
        if (!unknown.isEmpty()) throw new UsageError("init: option --" + unknown.getFirst() + " is not known (" + USAGE + ")");
        int given = (o.has("app") ? 1 : 0) + (o.has("cmd") ? 1 : 0) + (o.has("stack") ? 1 : 0);
        if (given != 1) throw new UsageError("init needs the service, one of them: " + USAGE);
        Path file = Path.of(o.string("out", "scenario.toml"));
        if (Files.exists(file)) throw new UsageError(file + " exists: give another --out or remove it");
        String service, path = "/";
        if (o.has("app")) {
            Path jar = Path.of(o.string("app", "")).toAbsolutePath().normalize();
            if (!Files.isRegularFile(jar)) throw new UsageError("--app " + jar + ": no such file");
            service = "app = " + quote(jar.toString()) + "     # a runnable jar; a Spring Boot jar is switched by the lab itself\n"
                    + "# virtual-args = \"--my.virtual=true\"   # how a plain jar is switched (or platform-args, virtual-env, platform-env)\n";
        } else if (o.has("cmd")) {
            service = "cmd = " + quote(o.string("cmd", "")) + "\n"
                    + "virtual-env = { VIRTUAL = \"true\" }      # how its thread mode is switched: env or args per mode\n"
                    + "platform-env = { VIRTUAL = \"false\" }\n";
        } else {
            vtlab.stack.Stack stack = vtlab.stack.Stack.load(o.string("stack", "")); // refused here when it is no stack of the lab
            // its first endpoint without placeholders (a path the stack answers), else its first one's
            path = stack.workloads().values().stream().map(vtlab.stack.Stack.Workload::path).filter(x -> !x.contains("{")).findFirst().orElse("/");
            service = "stack = " + quote(o.string("stack", "")) + "     # one of the lab's stacks (./vtlab list)\n";
        }
        String text = """
                # A vtlab scenario (docs/scenarios.md): ./vtlab run %s
                # Every key of [service], [load], [run] and [slo] is the command-line option of the same name, with its
                # default; an option given on the command line beside the file overrides the file's.
                name = %s

                [service]
                %s# env = { SPRING_PROFILES_ACTIVE = "bench" }  # the service's own settings, both modes
                # start-timeout = "120s"

                [load]
                conc = [50]              # closed model: connections (or load-model = "open" with rates = [200])
                warmup = "10s"
                hold = "20s"
                reps = 1
                # generator = "wrk"      # wrk (closed) or vegeta (open, rate profiles): both send the mix (k6 too, opt-in); oha and hey cannot

                [run]
                modes = ["platform", "virtual"]
                # jdk = ["25"]

                [slo]
                thresholds = [
                  # "p99_ms[virtual] <= 100",
                  # "error_rate < 0.1%%",
                  # "throughput_rps[virtual] >= 1.2 * throughput_rps[platform]",
                ]

                # The requests, sent as one weighted mix within each load.
                [[requests]]
                name = "home"
                method = "GET"
                path = %s
                expect-status = 200
                weight = 1

                # [[requests]]
                # name = "owner"
                # path = "/owners/{id}"   # {id}: drawn per request from [values]
                # weight = 3
                #
                # [values]
                # id = { from = 1, to = 10 }                     # or { csv = "owners.csv", column = "id" }
                """.formatted(file.getFileName(), quote(file.getFileName().toString().replaceFirst("\\.toml$", "")), service, quote(path));
        if (file.toAbsolutePath().getParent() != null) Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, text);
        out.println("vtlab: wrote " + file + ": edit its requests, then ./vtlab run " + file);
        return 0;
    }

    static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
