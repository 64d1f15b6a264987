package vtlab.tier;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

import vtlab.core.LabHome;
import vtlab.proc.CoreMap;
import vtlab.proc.Env;
import vtlab.proc.LabAffinity;
import vtlab.stack.Stack;
import vtlab.tier.tool.Jdk;

/**
 * A jar started from a JDK 25 AOT cache (JEP 483, 514, 515: its classes loaded and linked ahead of time, with the
 * method profiles of a training start), so that a Spring Boot service on one core answers in ~2 s instead of ~7.
 * Used where the row measures neither start-up nor footprint: the lab's own Spring stacks in a run (stack.json's
 * {@code launch.aotCache}) and ab's {@code --aot-cache}; never in a container row (its memory is the measurement), on
 * a JDK before 25, or for a command the lab does not launch itself.
 * <p>
 * The cache is trained once per jar build and JDK, on first use, with the row's own environment (the tiers are up):
 * the service is started with {@code -XX:AOTCacheOutput}, waited for until it answers, sent its own requests (so
 * that the cache holds the request path's profiles, see {@link #training}), and stopped; the JVM writes the cache as it
 * exits. A Spring Boot jar is extracted first ({@code java -Djarmode=tools -jar APP.jar extract}), as a
 * nested jar's classes cannot be cached. It lives in .vtlab/aot/, never beside the user's jar, and is found again by
 * the jar's path, size and time and the JDK. A training that fails leaves the row started from the jar as shipped,
 * saying why in {@code sut_launch}; it is not tried again in that run.
 */
public final class AotCache {
    public static final int MIN_JDK = 25;
    /** The JVM writes the cache as it exits: ~5-10 s for a Spring Boot service on one core. */
    private static final Duration WRITE_MAX = Duration.ofMinutes(2);
    private static final Map<String, String> FAILED = new ConcurrentHashMap<>();

    private AotCache() {}

    /**
     * How the JVM is told to run the jar: its arguments up to the program's own, and what the row's sut_launch says.
     *
     * @param javaArgs {@code -XX:AOTCache=… -jar app/APP.jar}, or {@code -jar APP.jar}
     */
    public record Use(List<String> javaArgs, String launch) {
        static Use jar(Stack stack, String why) {
            if (stack.jar() == null) return new Use(List.of(), "command"); // a --cmd: its command starts the JVM
            return new Use(List.of("-jar", stack.jar().toString()), why == null ? "jar" : "jar (no AOT cache: " + why + ")");
        }
    }

    /** Whether this stack's start on this JDK takes the cache at all (before anything is trained). */
    static boolean applies(Stack stack, Jdk jdk) {
        return stack.launch().command() == null && stack.launch().aotCache() && jdk.major() >= MIN_JDK;
    }

    /**
     * The cached launch of the stack's jar, trained now if this jar and JDK have none (on the row's CPUs, port and
     * environment, the training's output beside the row's log).
     */
    static Use forStart(Stack stack, Jdk jdk, List<String> jvmArgs, List<String> appArgs, Env env, String cpus, int port, Path log)
            throws InterruptedException {
        if (!applies(stack, jdk)) return Use.jar(stack, null);
        Path dir = dir(stack, jdk, jvmArgs);
        String key = dir.toString();
        String failed = FAILED.get(key);
        if (failed != null) return Use.jar(stack, failed);
        Path aot = dir.resolve("app.aot");
        String cannot = unwritable(dir);
        if (cannot != null) {
            // said once a run (FAILED keeps it): every fork of this jar starts from the jar as shipped, nothing else changes
            FAILED.put(key, cannot);
            System.err.println("vtlab: " + cannot + ": the forks start from the jar, without a cache");
            return Use.jar(stack, cannot);
        }
        try {
            boolean trained = Files.isRegularFile(aot);
            if (!trained) prune(dir, stack.jar());
            Path jar = runnable(stack, jdk, dir);
            if (!trained) train(stack.withJar(jar), jdk, jvmArgs, appArgs, env, cpus, port, log, aot);
            return new Use(List.of(JFR_MODULE, "-XX:AOTCache=" + aot, "-jar", jar.toString()), "aot-cache");
        } catch (IOException e) {
            String why = e.getMessage().lines().findFirst().orElse("training failed");
            FAILED.put(key, why);
            return Use.jar(stack, why);
        }
    }

    /**
     * Why the cache's folder cannot be written (a file in its way, a read-only disk, no permission), or null when it
     * can: tried by writing there, as root passes every permission check but a read-only disk's.
     */
    static String unwritable(Path dir) {
        try {
            Files.createDirectories(dir);
            Files.delete(Files.createTempFile(dir, "writable-", ".tmp"));
            return null;
        } catch (java.nio.file.FileAlreadyExistsException | java.nio.file.NotDirectoryException e) {
            return "the AOT cache folder " + dir + " cannot be written: a file is in its way (" + e.getFile() + ")";
        } catch (java.nio.file.FileSystemException e) {
            return "the AOT cache folder " + dir + " cannot be written: " + (e.getReason() != null ? e.getReason() : e.getClass().getSimpleName());
        } catch (IOException e) {
            return "the AOT cache folder " + dir + " cannot be written: " + e.getMessage();
        }
    }

    /**
     * jdk.jfr in the module graph of every cached start and of its training, whether the row records or not: the JVM
     * takes a cache only with the graph it was trained with, and a JFR option adds jdk.jfr to it. So one training
     * serves the rows with JFR (the profile, the pinning probe) and those without, where two had to (about 20 s each on
     * one core). Tried on JDK 25: trained with it, a start with it, with it and -XX:StartFlightRecording, or with the
     * JFR option alone takes the cache (its classes all shared); a start with neither is refused ("Mismatched values
     * for property jdk.module.addmods"). The module is resolved, not started: nothing records unless a row asks.
     */
    static final String JFR_MODULE = "--add-modules=jdk.jfr";

    /**
     * .vtlab/aot/JAR-jdkN-HASH: a new build of the jar (its size or time) or another JDK is another cache; the same jar
     * run as a stack of the lab's and by ab --app shares one.
     */
    static Path dir(Stack stack, Jdk jdk, List<String> jvmArgs) {
        String id = stack.jar().toAbsolutePath() + "|" + jdk.home() + "|" + jdk.version() + "|" + JFR_MODULE + "|" + shape(jvmArgs) + "|" + build(stack.jar());
        String hash = Integer.toHexString(id.hashCode()) + Integer.toHexString(new StringBuilder(id).reverse().toString().hashCode());
        return LabHome.get().resolve(".vtlab").resolve("aot").resolve(stack.jar().getFileName().toString().replaceFirst("\\.jar$", "")
                + "-jdk" + jdk.major() + "-" + hash);
    }

    /** A jar's build, as a cache is keyed by it: its size and time ("" when it cannot be read: its start fails anyway). */
    static String build(Path jar) {
        try {
            return Files.size(jar) + "|" + Files.getLastModifiedTime(jar).toMillis();
        } catch (IOException e) {
            return "";
        }
    }

    /** What a cache's folder was made for: the jar's path and its build (so that a later build's training can remove it). */
    static final String SOURCE = "source.txt";

    /**
     * Before a training into dir: removes the caches of the same jar's earlier builds (folders of its name and JDK whose
     * source.txt names this jar with another build, or that have none: a lab before it, whose keys this one never takes),
     * as none of them is taken again and each is 70-110 MB; then records what dir is for. Kept: another jar of the same
     * name elsewhere, this build's caches for other module options, and a cache a running JVM still maps (a service
     * started from it before its jar was rebuilt). Returns the folders removed.
     */
    static List<Path> prune(Path dir, Path jar) throws IOException {
        String path = "jar=" + jar.toAbsolutePath(), build = "build=" + build(jar);
        String prefix = dir.getFileName().toString().replaceFirst("[0-9a-f]+$", "");
        List<Path> removed = new ArrayList<>();
        if (Files.isDirectory(dir.getParent())) {
            List<Path> siblings;
            try (var s = Files.list(dir.getParent())) {
                siblings = s.filter(d -> !d.equals(dir) && Files.isDirectory(d) && d.getFileName().toString().startsWith(prefix)
                        && d.getFileName().toString().substring(prefix.length()).matches("[0-9a-f]+")).toList();
            }
            for (Path d : siblings) {
                Path source = d.resolve(SOURCE);
                if (Files.isRegularFile(source)) {
                    List<String> was = Files.readAllLines(source, StandardCharsets.UTF_8);
                    if (!was.contains(path) || was.contains(build)) continue;
                }
                if (mapped(d.resolve("app.aot"))) continue;
                vtlab.core.Folders.deleteTree(d);
                removed.add(d);
            }
        }
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(SOURCE), path + "\n" + build + "\n", StandardCharsets.UTF_8);
        return removed;
    }

    /** Whether a process of this machine maps the file (a JVM started from the cache maps it while it runs). */
    static boolean mapped(Path file) {
        String name = file.toAbsolutePath().toString();
        try (var procs = Files.list(Path.of("/proc"))) {
            for (Path p : procs.filter(q -> q.getFileName().toString().matches("\\d+")).toList()) {
                try (var lines = Files.lines(p.resolve("maps"))) {
                    if (lines.anyMatch(l -> l.endsWith(" " + name))) return true;
                } catch (IOException | java.io.UncheckedIOException e) {
                    // gone, or not ours to read
                }
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }

    /**
     * What of the JVM options a cache must be trained with to be taken: the module graph. The JVM refuses a cache whose
     * graph differs ("Mismatched values for property jdk.module.addmods: jdk.jfr specified during runtime but not
     * during dump time"): the module options (--add-opens, --add-modules, ..., -Djdk.module.*) are the graph itself. A
     * JFR option adds jdk.jfr, which every cached start has anyway ({@link #JFR_MODULE}): not a graph of its own. Heap,
     * stack, GC, compiler and NMT options were measured not to matter (docs/results.md, "AOT cache"), so rows that
     * differ only in those share one training.
     */
    static String shape(List<String> jvmArgs) {
        List<String> graph = new ArrayList<>();
        for (int i = 0; i < jvmArgs.size(); i++) {
            String a = jvmArgs.get(i);
            if (a.startsWith("-Djdk.module.")) graph.add(a);
            else if (MODULE_OPTIONS.contains(a) && i + 1 < jvmArgs.size()) graph.add(a + " " + jvmArgs.get(++i)); // its value is the next word
            else if (MODULE_OPTIONS.stream().anyMatch(o -> a.startsWith(o + "="))) graph.add(a);
        }
        return String.join(" ", graph);
    }

    /** The launcher's options that set the module graph (java --help: "--add-opens <module>/<package>=..."). */
    static final List<String> MODULE_OPTIONS = List.of("--add-opens", "--add-exports", "--add-modules", "--add-reads", "--limit-modules",
            "--module-path", "-p", "--upgrade-module-path", "--patch-module", "--enable-native-access");

    /** The JVM's own words when it refused a cache at start ("[error][aot] Mismatched values …"), or null. */
    static String refusal(Path sutLog) {
        try (var lines = Files.lines(sutLog, StandardCharsets.UTF_8)) {
            return lines.limit(200).filter(l -> l.contains("][error][aot]") && !l.contains("Run with -Xlog:aot"))
                    .map(l -> l.replaceFirst("^\\[[^]]*]\\[error]\\[aot] ?", "")).findFirst().orElse(null);
        } catch (IOException | java.io.UncheckedIOException e) {
            return null;
        }
    }

    /** The jar the cache is trained for: a Spring Boot jar extracted into dir/app (once), any other jar as it is. */
    private static Path runnable(Stack stack, Jdk jdk, Path dir) throws IOException, InterruptedException {
        if (!BootJar.is(stack.jar())) return stack.jar();
        Path app = dir.resolve("app"), jar = app.resolve(stack.jar().getFileName());
        if (Files.isRegularFile(jar)) return jar;
        Files.createDirectories(dir);
        Path tmp = Files.createTempDirectory(dir, "extract-");
        BootJar.extract(jdk, stack.jar(), tmp);
        Files.move(tmp, app, StandardCopyOption.ATOMIC_MOVE); // a half-extracted folder is never taken for a whole one
        return jar;
    }

    /**
     * Starts the service with -XX:AOTCacheOutput, waits until it answers, stops it (SIGTERM: the JVM writes the cache
     * as it exits) and keeps the cache only once it is whole.
     */
    private static void train(Stack extracted, Jdk jdk, List<String> jvmArgs, List<String> appArgs, Env env, String cpus, int port, Path log, Path aot)
            throws IOException, InterruptedException {
        Path tmp = aot.resolveSibling("training.aot");
        Files.deleteIfExists(tmp);
        Path trainingLog = log.resolveSibling(log.getFileName().toString().replaceFirst("\\.log$", "") + ".aot-training.log");
        Stack plain = new Stack(extracted.name(), extracted.description(), extracted.dir(), extracted.jar(), extracted.runtimeInfoPath(),
                extracted.settings(), extracted.tiers(), extracted.expect(), extracted.workloads(), extracted.data(), extracted.launch().withAotCache(false));
        List<String> training = new ArrayList<>(jvmArgs);
        training.add(JFR_MODULE);
        training.add("-XX:AOTCacheOutput=" + tmp);
        String on = trainingCpus(cpus, jvmArgs, training);
        SutProcess p = SutProcess.start(plain, jdk, training, appArgs, env, on, port, trainingLog);
        try {
            p.awaitReady(extracted.launch().startTimeout());
        } catch (IOException e) {
            p.close();
            throw new IOException("the training start did not answer: " + e.getMessage() + " (" + trainingLog + ")");
        }
        exercise(p.base(), training(extracted));
        if (!p.stopAndAwait(WRITE_MAX)) {
            throw new IOException("the training JVM did not write its cache within " + WRITE_MAX.toSeconds() + " s (" + trainingLog + ")");
        }
        if (!Files.isRegularFile(tmp) || Files.size(tmp) == 0) {
            throw new IOException("the training JVM wrote no cache: " + lastAotLine(trainingLog));
        }
        Files.move(tmp, aot, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * The CPUs a training runs on: every CPU the lab may use (nothing is measured while a row's service trains, before
     * its own JVM starts), told the row's processor count (-XX:ActiveProcessorCount, added to training), so that the
     * JVM picks the GC and the pools the row's start will and the cache fits that start. A Spring training took 20.1 s
     * on one CPU and 16.9 s on two (a new machine trains four). The row's own CPUs where the service sets its count
     * itself, or where they are all the lab has.
     */
    static String trainingCpus(String rowCpus, List<String> jvmArgs, List<String> training) {
        String all = LabAffinity.originalCpuList();
        if (all == null || all.equals(rowCpus) || jvmArgs.stream().anyMatch(a -> a.startsWith(ACTIVE_PROCESSORS))) return rowCpus;
        int machine = LabAffinity.machineCpus(), count;
        try {
            count = CoreMap.parse(rowCpus, machine).length;
            if (count >= CoreMap.parse(all, machine).length) return rowCpus;
        } catch (IllegalArgumentException e) {
            return rowCpus; // a list the lab cannot read: trained where the row runs
        }
        training.add(ACTIVE_PROCESSORS + count);
        return all;
    }

    static final String ACTIVE_PROCESSORS = "-XX:ActiveProcessorCount=";

    /**
     * How long the training sends a service's own requests: JEP 515 keeps the method profiles the training gathered, so
     * a fork's JIT starts from the request path's profile instead of building it under the measured load. Runtime-info
     * alone profiles the server's dispatch but none of a foreign service's code (a Spring/JPA fork then warmed up for
     * most of a minute on one core). The lab's own stacks keep their 300 runtime-info requests: their request paths are
     * small, and a new machine trains four of them.
     */
    static final Duration TRAINING_LOAD = Duration.ofSeconds(20);
    /** Requests a training of the lab's own stacks answers (their runtime-info). */
    static final int OWN_TRAINING_REQUESTS = 300;
    /** Clients at once in the training: enough to run the server's pool and queues, few enough for one core. */
    static final int TRAINING_CLIENTS = 4;

    /** What a training sends: the paths in turn, for at most this long and this many requests. */
    record Training(List<String> paths, Duration load, long requests) {}

    /**
     * A service with runtime-info (the lab's own) is sent that; any other every workload whose request is a GET or HEAD
     * with a literal path (one with placeholders is filled per row; a request that writes is the A/B's to send).
     */
    static Training training(Stack stack) {
        if (stack.runtimeInfoPath() != null) return new Training(List.of(stack.runtimeInfoPath()), TRAINING_LOAD, OWN_TRAINING_REQUESTS);
        List<String> paths = new ArrayList<>();
        for (Stack.Workload w : stack.workloads().values()) {
            String method = w.request() == null ? "GET" : w.request().method();
            boolean reads = method.equals("GET") || method.equals("HEAD");
            if (reads && w.mix() == null && !w.path().contains("{") && !paths.contains(w.path())) paths.add(w.path());
        }
        return new Training(paths, TRAINING_LOAD, Long.MAX_VALUE);
    }

    /** {@link #TRAINING_CLIENTS} clients request the paths in turn until the training's time or count; returns the answers. */
    static long exercise(URI base, Training t) throws InterruptedException {
        if (t.paths().isEmpty()) return 0;
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long end = System.nanoTime() + t.load().toNanos();
        AtomicLong sent = new AtomicLong(), answered = new AtomicLong();
        try (var clients = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int c = 0; c < TRAINING_CLIENTS; c++) {
                clients.submit(() -> {
                    for (long i; System.nanoTime() < end && (i = sent.getAndIncrement()) < t.requests(); ) {
                        URI uri = base.resolve(t.paths().get((int) (i % t.paths().size())));
                        try {
                            http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding());
                            answered.incrementAndGet();
                        } catch (IOException e) {
                            return; // a profile of fewer requests is still a cache
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return;
                        }
                    }
                });
            }
        }
        return answered.get();
    }

    private static String lastAotLine(Path log) {
        try {
            List<String> aotLines = Files.readAllLines(log, StandardCharsets.UTF_8).stream().filter(l -> l.contains("aot") || l.contains("AOT")).toList();
            return aotLines.isEmpty() ? "no AOT line in " + log : aotLines.getLast();
        } catch (IOException e) {
            return e.getMessage();
        }
    }
}
