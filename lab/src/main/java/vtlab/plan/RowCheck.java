package vtlab.plan;

import java.net.URI;
import java.util.Map;

import vtlab.tier.RunTier;

/** Verification a row's experiment adds after the runner's own; throwing fails the row with the message. */
public interface RowCheck {
    RowCheck NONE = (row, sutBase, tiers) -> {};

    void verify(Row row, URI sutBase, Map<String, RunTier> tiers) throws Exception;
}
