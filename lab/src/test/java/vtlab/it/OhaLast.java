package vtlab.it;

import java.util.Comparator;

import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.ClassOrdererContext;
import org.junit.jupiter.api.ClassDescriptor;
import org.junit.jupiter.api.Tag;

/**
 * The end-to-end classes in one run, those that need oha (tagged {@value #OHA}) last, every other class in the order
 * it came: on a new machine oha compiles (cargo, about ten core-minutes) at idle priority while the others measure, and
 * the lab's tool lookup waits for that build if it is not done when the first oha class starts. One Maven run instead
 * of two saved the ~25 s a second reactor and its wait cost (failsafe's configurationParameters name this orderer).
 */
public final class OhaLast implements ClassOrderer {
    static final String OHA = "oha";

    @Override
    public void orderClasses(ClassOrdererContext context) {
        // List.sort is stable: the classes that need no oha keep failsafe's order, and so do the oha ones after them
        context.getClassDescriptors().sort(Comparator.comparing(OhaLast::needsOha));
    }

    static boolean needsOha(ClassDescriptor c) {
        return c.findRepeatableAnnotations(Tag.class).stream().anyMatch(t -> t.value().equals(OHA));
    }
}
