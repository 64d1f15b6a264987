package vtlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** ./vtlab COMMAND --help prints that command's own help, naming its usage and every option it takes, for every command. */
class CommandHelpTest {
    static String run(String... args) throws Exception {
        return HelpCommandTest.run(args);
    }

    @Test
    void everyCommandsHelpIsItsOwn() throws Exception {
        String global = run("--help");
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, Command> e : Main.commands(List.of()).entrySet()) {
            String name = e.getKey(), help = run(name, "--help");
            if (!help.equals(run(name, "-h")) || !help.equals(run("help", name))) wrong.add(name + ": --help, -h and help " + name + " differ");
            if (!name.equals("help") && help.equals(global)) wrong.add(name + ": prints the global help");
            if (!help.contains("./vtlab " + name)) wrong.add(name + ": no usage line");
            for (String opt : e.getValue().options()) if (!help.contains("--" + opt)) wrong.add(name + ": --" + opt + " not in its help");
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void helpIsTheSameWhereverTheFlagStands() throws Exception {
        assertEquals(run("init", "--help"), run("init", "--cmd", "x", "--help"));
        assertEquals(run("hosts", "--help"), run("hosts", "up", "--help"));
        assertNotEquals(run("ab", "--help"), run("init", "--help"));
        assertEquals(run("run", "scenario", "--help"), run("run", "docs/scenarios/servlet-mix.toml", "--help"));
    }

    /** ./vtlab test and ./vtlab build are the launcher's: it asks the lab for their help (./vtlab test --help runs no suite). */
    @Test
    void theLaunchersCommandsHaveTheirHelp() throws Exception {
        for (String name : HelpCommand.LAUNCHER.keySet()) assertTrue(run("help", name).startsWith("Usage: ./vtlab " + name), name);
        assertTrue(run("help", "test").contains("--repeat"));
    }
}
