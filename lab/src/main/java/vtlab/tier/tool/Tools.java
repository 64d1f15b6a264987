package vtlab.tier.tool;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import vtlab.core.UsageError;

/**
 * Every external tool the lab uses, by name, with its pinned version and how it is installed: the one lookup the
 * generators, tiers, tests, ./vtlab setup and ./vtlab doctor share. ./vtlab test installs the default set
 * ({@link #defaults()}) before Maven starts, and ./vtlab run installs what its rows need before the first row, so no
 * install ever runs inside a timing. An opt-in tool (k6, AGPL-3.0: {@link Tool#optInLicence}) is in no default set:
 * only --generator k6 or ./vtlab setup k6 installs it, saying its licence first.
 */
public final class Tools {
    public static final String OHA_VERSION = "1.16.0";
    /** AGPL-3.0: opt-in, installed only for --generator k6 or ./vtlab setup k6 (issue 40). */
    public static final String K6_VERSION = "v1.8.1";
    public static final String K6_LICENCE = "AGPL-3.0";
    /**
     * vegeta (MIT), the open model's generator for rate profiles, mixes and faults: the newest release on the Go module
     * proxy (what @latest resolves to on 2026-11-27), pinned so that a later release never changes a row's numbers
     * unnoticed, as oha and k6 are.
     */
    public static final String VEGETA_VERSION = "v12.13.0";
    public static final String VEGETA_MODULE = "github.com/tsenart/vegeta/v12";
    public static final String K6_MODULE = "go.k6.io/k6";
    /** @latest resolves to v2.5.0 on the module proxy here: pinned to the newest release that resolves. */
    public static final String TOXIPROXY_VERSION = "v2.12.0";
    public static final String TOXIPROXY_MODULE = "github.com/Shopify/toxiproxy/v2";

    public static final Tool WRK = AptTool.printing("wrk", "wrk", "wrk", "-v");
    /** hey prints no version. */
    public static final Tool HEY = new AptTool("hey", "hey", "hey", p -> null);
    public static final Tool OHA = BuiltTool.cargo("oha", OHA_VERSION, Tools::ohaVersion);
    public static final Tool K6 = BuiltTool.go("k6", K6_MODULE, K6_VERSION, Tools::k6Version).optIn(K6_LICENCE);
    /** Its go-install build prints an empty version (no ldflags), so the version is the module's, as toxiproxy's. */
    public static final Tool VEGETA = BuiltTool.go("vegeta", VEGETA_MODULE, VEGETA_VERSION, p -> RegistryTools.goModuleVersion(p, VEGETA_MODULE));
    public static final Tool POSTGRES = new PostgresServer();
    /** The fault proxy (see vtlab.tier.fault): its go-install build prints "version git", so the version is the module's. */
    public static final Tool TOXIPROXY = BuiltTool.go("toxiproxy-server", TOXIPROXY_MODULE, TOXIPROXY_MODULE + "/cmd/server", "server",
            TOXIPROXY_VERSION, p -> RegistryTools.goModuleVersion(p, TOXIPROXY_MODULE));
    public static final Tool CHROMIUM = AptTool.printing("chromium", "chromium", "chromium", "--version");
    public static final Tool CHROMEDRIVER = AptTool.printing("chromedriver", "chromedriver", "chromium-driver", "--version");
    public static final Tool JDK21 = new Jdk21();
    /**
     * The SSH server of the test hosts (./vtlab hosts up: one in each network namespace, see vtlab.tier.host); its
     * `-V` prints "OpenSSH_9.2, OpenSSL ...". Real hosts bring their own.
     */
    public static final Tool SSHD = AptTool.printing("sshd", "sshd", "openssh-server", "-V");
    /** iproute2's ip: the test hosts' network namespaces, veth pairs and bridge. */
    public static final Tool IP = AptTool.printing("ip", "ip", "iproute2", "-V");

    private static final Map<String, Tool> ALL = new LinkedHashMap<>();

    static {
        for (Tool t : new Tool[] {WRK, HEY, OHA, VEGETA, K6, POSTGRES, TOXIPROXY, CHROMIUM, CHROMEDRIVER, JDK21, SSHD, IP}) ALL.put(t.name(), t);
    }

    private Tools() {}

    public static Map<String, Tool> all() {
        return java.util.Collections.unmodifiableMap(ALL);
    }

    /** What ./vtlab setup and ./vtlab test install unasked: every tool but the opt-in ones (k6). */
    public static Map<String, Tool> defaults() {
        Map<String, Tool> out = new LinkedHashMap<>();
        ALL.forEach((n, t) -> { if (t.optInLicence() == null) out.put(n, t); });
        return java.util.Collections.unmodifiableMap(out);
    }

    public static Tool named(String name) throws UsageError {
        Tool t = ALL.get(name);
        if (t == null) throw new UsageError("unknown tool '" + name + "' (" + String.join(", ", ALL.keySet()) + ")");
        return t;
    }

    /** "1.16.0" from `oha --version` ("oha 1.16.0"), or null. */
    public static String ohaVersion(Path binary) {
        String out = RegistryTools.output(binary, "--version");
        return out != null && out.startsWith("oha ") ? out.substring(4).trim() : null;
    }

    /** "v1.8.1" from `k6 version` ("k6 v1.8.1 (go1.26.8, linux/amd64)"), or null. */
    public static String k6Version(Path binary) {
        String out = RegistryTools.output(binary, "version");
        String[] words = out == null ? new String[0] : out.split("\\s+");
        return words.length >= 2 && words[0].equals("k6") ? words[1] : null;
    }
}
