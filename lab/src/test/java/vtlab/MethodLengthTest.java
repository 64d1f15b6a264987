package vtlab;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The packages a run goes through (the command, its plan, the runner, the contracts, ab's verdict) keep their methods
 * under {@link #MAX} lines, so that each reads as one step; a longer one is split into named parts.
 */
class MethodLengthTest {
    /** A method of this many lines or more (its declaration to its closing brace) is refused. */
    static final int MAX = 60;
    /** The packages held to it, as folders under vtlab (sub-packages apart). */
    static final List<String> PACKAGES = List.of("cli", "planning", "run", "plan", "experiment/ab");

    /** A declaration before its body: annotations, modifiers, type parameters, a return type (none: a constructor), a name, parameters, throws. */
    static final Pattern DECLARATION = Pattern.compile("(?:@[\\w.]+(?:\\([^)]*\\))?\\s*)*(?:(?:public|protected|private|static|final|abstract|default|synchronized)\\s+)*"
            + "(?:<[^()]+>\\s+)?(?:[\\w.$]+(?:<.*>)?(?:\\[\\])*\\s+)?(\\w+)\\s*\\(.*\\)\\s*(?:throws\\s+[\\w.,\\s]+)?");
    static final Set<String> NOT_A_NAME = Set.of("if", "for", "while", "switch", "catch", "synchronized", "try", "return", "new", "throw");

    /** The methods of a source of lines or more, as "Class.method: N lines". */
    static List<String> longMethods(String cls, String source, int max) {
        String code = codeOnly(source);
        List<String> out = new ArrayList<>();
        Deque<int[]> open = new ArrayDeque<>(); // per open brace: the line the method began on, or -1 when it is no method
        Deque<String> names = new ArrayDeque<>();
        StringBuilder statement = new StringBuilder();
        int line = 1, statementLine = 1;
        for (int i = 0; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '\n') line++;
            if (c == '{') {
                String s = statement.toString().strip().replaceAll("\\s+", " ");
                var m = DECLARATION.matcher(s);
                boolean method = m.matches() && !NOT_A_NAME.contains(m.group(1)) && !s.contains("->")
                        && !Pattern.compile("\\b(class|record|interface|enum|new|else)\\b").matcher(s).find();
                open.push(new int[] {method ? statementLine : -1});
                names.push(method ? m.group(1) : "");
                statement.setLength(0);
            } else if (c == '}' || c == ';') {
                if (c == '}' && !open.isEmpty()) {
                    int start = open.pop()[0];
                    String name = names.pop();
                    if (start >= 0 && line - start + 1 >= max) out.add(cls + "." + name + ": " + (line - start + 1) + " lines");
                }
                statement.setLength(0);
            } else {
                if (statement.toString().isBlank() && !Character.isWhitespace(c)) statementLine = line;
                statement.append(c);
            }
        }
        return out;
    }

    /** The source with comments, strings, text blocks and characters blanked, its lines kept. */
    static String codeOnly(String s) {
        StringBuilder out = new StringBuilder(s.length());
        int i = 0;
        while (i < s.length()) {
            String end = s.startsWith("//", i) ? "\n" : s.startsWith("/*", i) ? "*/" : s.startsWith("\"\"\"", i) ? "\"\"\""
                    : s.charAt(i) == '"' ? "\"" : s.charAt(i) == '\'' ? "'" : null;
            if (end == null) {
                out.append(s.charAt(i++));
                continue;
            }
            int from = i + (end.equals("\n") ? 2 : end.length() == 2 ? 2 : end.length());
            int j = from;
            while (j < s.length() && !s.startsWith(end, j)) j += s.charAt(j) == '\\' && !end.equals("\n") && !end.equals("*/") ? 2 : 1;
            j = Math.min(s.length(), j + (end.equals("\n") ? 0 : end.length()));
            for (int k = i; k < j; k++) out.append(s.charAt(k) == '\n' ? '\n' : ' ');
            out.append(end.equals("\"") || end.equals("'") || end.equals("\"\"\"") ? "x" : ""); // a literal stays an operand
            i = j;
        }
        return out.toString();
    }

    @Test
    void noMethodOfARunsPackagesIsTooLong() throws IOException {
        List<String> found = new ArrayList<>();
        for (String pkg : PACKAGES) {
            try (Stream<Path> files = Files.list(ArchitectureTest.SOURCES.resolve(pkg))) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                    found.addAll(longMethods(pkg + "/" + f.getFileName().toString().replace(".java", ""), Files.readString(f), MAX));
                }
            }
        }
        assertEquals(List.of(), found, "methods of " + MAX + " lines or more: split them into named steps");
    }

    /** The check itself: it sees a long method, a constructor, a method in a nested class, and not a lambda or a block. */
    @Test
    void theCountSeesMethodsAndNothingElse() {
        String body = "        x();\n".repeat(3);
        String src = "class A {\n    A(int a) {\n" + body + "    }\n"
                + "    static <T> List<T> m(String s) throws IOException {\n        String t = \"{ not a brace\";\n"
                + "        if (s == null) {\n" + body + "        }\n        Runnable r = () -> {\n" + body + "        };\n    }\n"
                + "    record R(int a) {\n        int twice() {\n" + body + "        }\n    }\n}\n";
        assertEquals(List.of("A.A: 5 lines", "A.m: 13 lines", "A.twice: 5 lines"), longMethods("A", src, 5));
        assertEquals(List.of("A.m: 13 lines"), longMethods("A", src, 6));
    }
}
