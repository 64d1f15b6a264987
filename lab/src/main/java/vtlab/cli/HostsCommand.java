package vtlab.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

import vtlab.core.LabHome;
import vtlab.core.Opt;
import vtlab.core.Options;
import vtlab.core.UsageError;
import vtlab.tier.host.HostSpec;
import vtlab.tier.host.HostSurvey;
import vtlab.tier.host.TestHosts;
import vtlab.tier.host.Topology;

/**
 * ./vtlab hosts up N [--out FILE] | down: test hosts on this machine (network namespaces with an sshd each, see
 * {@link TestHosts}) and the topology file that points a run at them; down removes every one (both as root only);
 * check reaches every host of a topology file (test hosts or real ones) and says what it found.
 */
final class HostsCommand implements Command {
    static final String USAGE = "./vtlab hosts up N [--out hosts.toml] | ./vtlab hosts down | ./vtlab hosts check [hosts.toml]";
    static final Opt OUT = Opt.of("out", null, "where the hosts file goes (default .vtlab/hosts/hosts.toml)");

    @Override
    public String name() {
        return "hosts";
    }

    @Override
    public String help() {
        return "Usage: " + USAGE + "\n" + """
                  ./vtlab hosts up N       N test hosts on this machine (network namespaces on a bridge, an sshd each,
                                           as root) and the topology file naming them: the SUT on h1, load agents on
                                           h2..N, pg and the stub local
                    --out hosts.toml       where that file goes (default .vtlab/hosts/hosts.toml)
                  ./vtlab hosts down       removes every test host (sshd, namespaces, links, bridge)
                  ./vtlab hosts check F    reaches every host of a topology file: CPUs, kernel, JDK, clock offset, or
                                           why it is unreachable (exit code 1)
                  Then: ./vtlab run EXPERIMENT --hosts hosts.toml (docs/design.md, "Beyond one machine").
                """;
    }

    @Override
    public java.util.Set<String> options() {
        return java.util.Set.of(OUT.name());
    }

    @Override
    @SuppressWarnings("unchecked")
    public int run(Options o, List<String> args, PrintStream out) throws Exception {
        List<String> unknown = o.unknown(Main.withHelp(options()));
        if (!unknown.isEmpty()) throw new UsageError("option --" + unknown.getFirst() + " is not known to hosts (usage: " + USAGE + ")");
        String what = args.isEmpty() ? "" : args.getFirst();
        TestHosts hosts = new TestHosts(LabHome.get().resolve(".vtlab/hosts"));
        switch (what) {
            case "up" -> {
                int n = args.size() == 2 && args.get(1).matches("\\d{1,3}") ? Integer.parseInt(args.get(1)) : -1;
                if (n < 1 || n > TestHosts.MAX) throw new UsageError("hosts up takes the number of hosts, 1 to " + TestHosts.MAX + " (usage: " + USAGE + ")");
                Path file = Path.of(OUT.string(o, LabHome.get().resolve(".vtlab/hosts/hosts.toml").toString())).toAbsolutePath();
                TestHosts.requirePrivileges();
                Topology t = hosts.up(n, file);
                for (HostSpec h : t.all()) {
                    out.println("vtlab: " + String.format("%-5s", h.role()) + " " + h.where() + (h.cpus() == null ? "" : "  cpus " + h.cpus()));
                }
                out.println("vtlab: " + TestHosts.namespaces().size() + " test hosts up; topology in " + file);
                out.println("vtlab: try it: ssh -i " + hosts.identity() + " -o UserKnownHostsFile=" + hosts.knownHosts() + " root@"
                        + TestHosts.address(1) + " -- cat /proc/loadavg;  ./vtlab hosts down removes them");
                return 0;
            }
            case "down" -> {
                if (args.size() != 1) throw new UsageError("hosts down takes nothing more (usage: " + USAGE + ")");
                TestHosts.requirePrivileges();
                List<String> removed = hosts.down();
                out.println("vtlab: " + (removed.isEmpty() ? "no test hosts were up" : "removed " + String.join(", ", removed)));
                return 0;
            }
            case "check" -> {
                if (args.size() > 2) throw new UsageError("hosts check takes one topology file (usage: " + USAGE + ")");
                Path file = args.size() == 2 ? Path.of(args.get(1)) : LabHome.get().resolve(".vtlab/hosts/hosts.toml");
                List<java.util.Map<String, Object>> survey = HostSurvey.of(Topology.read(file));
                for (var h : survey) {
                    out.println("vtlab: " + String.format("%-22s", h.get("host")) + " " + String.join(",", (List<String>) h.get("roles")) + "  "
                            + (h.containsKey("error") ? "UNREACHABLE: " + h.get("error")
                            : h.get("cpus") + " CPUs " + h.get("cpu_model") + ", kernel " + h.get("kernel") + ", "
                            + (h.get("jdk") == null ? "no java on PATH" : h.get("jdk")) + ", clock " + h.get("clock_offset_ms")
                            + " ms ± " + h.get("clock_uncertainty_ms")));
                }
                return HostSurvey.allReached(survey) ? 0 : 1;
            }
            default -> throw new UsageError((what.isEmpty() ? "hosts needs up or down" : "unknown hosts action '" + what + "'") + " (usage: " + USAGE + ")");
        }
    }
}
