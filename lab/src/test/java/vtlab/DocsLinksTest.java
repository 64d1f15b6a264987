package vtlab;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The README is the front door (under 180 lines: the two commands first, your own service within the first 60
 * lines), the docs speak of the product (no issue numbers, no sessions or rounds of work), and every link of the
 * README and of docs/ leads somewhere, down to its heading.
 */
class DocsLinksTest {
    static final Path HOME = Path.of(System.getProperty("vtlab.home", "..")).toAbsolutePath().normalize();
    /** A Markdown link: a target (empty for one on the same page) and an optional #anchor. */
    static final Pattern LINK = Pattern.compile("\\]\\(([^)#\\s]*)(#[^)\\s]*)?\\)");
    /** How a logbook speaks: the project's issue numbers, its sessions and rounds of work. */
    static final Pattern LOGBOOK = Pattern.compile("(?i)\\bissues?\\s+#?\\d+|\\b(this|that|next|earlier|later|previous|first|second|third|fourth|fifth)"
            + "\\s+(session|round)s?\\b|\\bsessions?\\s+\\d+|\\brounds?\\s+of\\s+work\\b");
    static final int README_MAX = 180, FRONT = 60;

    @Test
    void theReadmeIsShortAndStartsWithTheTwoCommands() throws IOException {
        List<String> lines = Files.readAllLines(HOME.resolve("README.md"));
        assertTrue(lines.size() < README_MAX, "README.md has " + lines.size() + " lines, the most is " + (README_MAX - 1));
        String head = String.join("\n", lines.subList(0, Math.min(15, lines.size())));
        assertTrue(head.contains("./vtlab run ") && head.contains("./vtlab test "), head);
    }

    /** Your own service is the README's first subject after the two commands: ab on a jar or a command, and a scenario file. */
    @Test
    void theReadmesFrontShowsAbAndAScenarioFile() throws IOException {
        List<String> lines = Files.readAllLines(HOME.resolve("README.md"));
        String front = String.join("\n", lines.subList(0, Math.min(FRONT, lines.size())));
        assertTrue(front.contains("./vtlab ab "), "no ./vtlab ab in the README's first " + FRONT + " lines");
        assertTrue(Pattern.compile("\\./vtlab run \\S+\\.toml").matcher(front).find(), "no ./vtlab run FILE.toml in the README's first " + FRONT + " lines");
        assertTrue(front.contains("docs/scenarios.md"), "the scenario files' page is not linked in the README's first " + FRONT + " lines");
    }

    @Test
    void theDocsSpeakOfTheProductNotOfItsIssues() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path page : pages()) {
            List<String> lines = Files.readAllLines(page);
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = LOGBOOK.matcher(lines.get(i));
                while (m.find()) found.add(HOME.relativize(page) + ":" + (i + 1) + ": '" + m.group() + "'");
            }
        }
        assertTrue(found.isEmpty(), "logbook wording: " + found);
    }

    /** README.md and every Markdown page under docs/. */
    static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(HOME.resolve("README.md")));
        try (Stream<Path> s = Files.walk(HOME.resolve("docs"))) {
            s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    @Test
    void everyLocalLinkResolves() throws IOException {
        List<Path> pages = pages();
        List<String> broken = new ArrayList<>();
        for (Path page : pages) {
            Matcher m = LINK.matcher(Files.readString(page));
            while (m.find()) {
                String target = m.group(1);
                if (target.isEmpty() && m.group(2) == null) continue;
                if (target.matches("[a-z]+:.*")) continue; // http(s), mailto: not ours to check
                Path t = target.isEmpty() ? page : page.getParent().resolve(target).normalize();
                if (!Files.exists(t)) broken.add(HOME.relativize(page) + " -> " + target);
                else if (m.group(2) != null && t.toString().endsWith(".md") && !anchors(t).contains(m.group(2).substring(1))) {
                    broken.add(HOME.relativize(page) + " -> " + target + m.group(2));
                }
            }
        }
        assertTrue(pages.size() > 3, pages.toString());
        assertTrue(broken.isEmpty(), "broken links: " + broken);
    }

    /** GitHub's anchors: headings lower-cased, punctuation dropped, spaces to dashes. */
    static List<String> anchors(Path md) throws IOException {
        return Files.readAllLines(md).stream().filter(l -> l.startsWith("#"))
                .map(l -> l.replaceFirst("^#+\\s*", "").toLowerCase().replaceAll("[^a-z0-9 _-]", "").replace(' ', '-')).toList();
    }
}
