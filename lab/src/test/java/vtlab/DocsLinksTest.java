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

/** The README stays what a newcomer reads (at most 250 lines), and every link of it and of docs/ leads somewhere. */
class DocsLinksTest {
    static final Path HOME = Path.of(System.getProperty("vtlab.home", "..")).toAbsolutePath().normalize();
    static final Pattern LINK = Pattern.compile("\\]\\(([^)#\\s]+)(#[^)\\s]*)?\\)");

    @Test
    void theReadmeIsShortAndStartsWithTheTwoCommands() throws IOException {
        List<String> lines = Files.readAllLines(HOME.resolve("README.md"));
        assertTrue(lines.size() <= 250, "README.md has " + lines.size() + " lines");
        String head = String.join("\n", lines.subList(0, Math.min(15, lines.size())));
        assertTrue(head.contains("./vtlab run ") && head.contains("./vtlab test "), head);
    }

    @Test
    void everyLocalLinkResolves() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(HOME.resolve("README.md")));
        try (Stream<Path> s = Files.list(HOME.resolve("docs"))) {
            s.filter(p -> p.toString().endsWith(".md")).forEach(pages::add);
        }
        List<String> broken = new ArrayList<>();
        for (Path page : pages) {
            Matcher m = LINK.matcher(Files.readString(page));
            while (m.find()) {
                String target = m.group(1);
                if (target.matches("[a-z]+:.*")) continue; // http(s), mailto: not ours to check
                Path t = page.getParent().resolve(target).normalize();
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
