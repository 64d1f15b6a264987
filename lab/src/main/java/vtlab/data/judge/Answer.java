package vtlab.data.judge;

/** What a claim says, one of three, each from the whole interval, never from the estimate alone. */
public enum Answer {
    /** The whole set above 1 (a ray upward counts: "at least 1.11×"). */
    BETTER("better"),
    /** The whole set below 1. */
    WORSE("worse"),
    /** The whole set inside the margin's band around 1. */
    EQUIVALENT("equivalent"),
    /** None of the above: the set holds 1 and reaches past the margin, or there is no set (one fork a side). */
    UNDETERMINED("undetermined");

    public final String word;

    Answer(String word) {
        this.word = word;
    }

    /** A difference claimed: better or worse. */
    public boolean difference() {
        return this == BETTER || this == WORSE;
    }
}
