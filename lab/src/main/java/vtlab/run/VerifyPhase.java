package vtlab.run;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import vtlab.plan.Row;
import vtlab.run.RowRunner.RowFailed;
import vtlab.stack.Stack;

/**
 * Waits for the SUT (a fresh JVM's start-up is the wait for its first answer), keeps its runtime-info in raw/, checks
 * it and the endpoint, then the experiment's own check.
 */
final class VerifyPhase implements Phase {
    /** Checks a started SUT before load (runtime-info against the row, one request to the workload); the runtime-info. */
    interface Verification {
        JsonNode verify(String runtimeInfo, Row row, URI url, Stack.Workload workload) throws Exception;
    }

    private final Verification verification;
    /** Why a SUT configuration did not start: read by {@link SutUpPhase}, so its later rows are not started again. */
    private final Map<String, String> startFailures;

    VerifyPhase(Verification verification, Map<String, String> startFailures) {
        this.verification = verification;
        this.startFailures = startFailures;
    }

    @Override
    public String name() {
        return "verify";
    }

    @Override
    public void run(RowContext c) throws Exception {
        c.steps.step("verifying");
        c.url = c.sut.base().resolve(c.workload.pathFor(c.row.params()));
        c.runtime = verify(c);
        c.out.put(RowColumns.SUT_LAUNCH, c.sut.launch()); // once it answers: a cache the JVM refused is in its log by then
    }

    private JsonNode verify(RowContext c) throws Exception {
        String info;
        try {
            c.steps.enter("start"); // a fresh JVM's start-up is the wait for its first answer
            info = c.sut.awaitReady(c.stack.launch().startTimeout());
            c.steps.enter(name());
        } catch (IOException e) {
            startFailures.put(c.config, e.getMessage()); // exited or never ready: its later rows are not started again
            throw new RowFailed(e.getMessage());
        }
        JsonNode runtime;
        if (c.stack.reportsRuntimeInfo()) {
            Files.writeString(c.raw.resolve(c.stem + ".runtime-info.json"), info);
            runtime = verification.verify(info, c.row, c.url, c.workload);
        } else {
            new Verifier().verifyEndpoint(c.url, c.workload); // nothing to compare the configuration with: the thread dump does it
            runtime = JsonNodeFactory.instance.objectNode();
        }
        c.planned.extraVerification().verify(c.row, c.sut.base(), c.runTiers);
        return runtime;
    }

    static JsonNode verifyOverHttp(String info, Row row, URI url, Stack.Workload w) throws Exception {
        Verifier v = new Verifier();
        JsonNode runtime = v.verifyConfig(info, row);
        v.verifyEndpoint(url, w);
        return runtime;
    }
}
