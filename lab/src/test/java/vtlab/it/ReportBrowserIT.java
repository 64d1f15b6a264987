package vtlab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

import vtlab.cli.Main;
import vtlab.tier.tool.Tool;
import vtlab.tier.tool.Tools;

/**
 * The report of a short real run, opened in a real browser: Debian's chromium driven through Debian's chromedriver
 * (both installed here when missing; nothing is downloaded by Selenium). Every chart must have drawn, the page must
 * log no error, verdict links must land on rows, and the rows table must sort. Screenshots go to
 * lab/target/report-it/.
 */
class ReportBrowserIT {
    /** Selenium warns that it has no DevTools bindings for a Chromium this new; the test uses none. Held so they stay set. */
    static final List<java.util.logging.Logger> CDP_LOGS = List.of(java.util.logging.Logger.getLogger("org.openqa.selenium.devtools"),
            java.util.logging.Logger.getLogger("org.openqa.selenium.chromium"));
    static Path chromium;
    static Path chromedriver;

    @TempDir
    Path out;

    @BeforeAll
    static void browser() {
        CDP_LOGS.forEach(l -> l.setLevel(Level.SEVERE));
        chromium = find(Tools.CHROMIUM);
        chromedriver = find(Tools.CHROMEDRIVER);
    }

    private static Path find(Tool t) {
        try {
            return t.get();
        } catch (java.io.IOException e) {
            return fail(t.name() + " is missing and could not be installed: " + e.getMessage());
        }
    }

    @Test
    void theReportOfARealRunDrawsEveryChartWithoutErrors() throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        // a threshold every row breaches (the sleep is 50 ms): exit 99, the report still written
        // with the profile probe: each row's bar links the flame graph of its profiled hold (JFR's samples drawn by
        // async-profiler's converter), opened below
        int code = Main.run(List.of("run", "servlet", "--quick", "--workloads", "sleep", "--conc", "50", "--hold", "2s", "--probes", "+profile",
                "--fail-on", "p50_ms>1", "--port", Integer.toString(Lab.freePort()), "--out", out.toString()), new PrintStream(buf, true));
        String console = buf.toString();
        assertEquals(99, code, console);
        Path run = Lab.onlyRun(out);
        assertTrue(Files.readString(run.resolve("summary.txt")).contains("BREACHED row 1"), console);
        assertTrue(Files.exists(run.resolve("summary.json")), console);
        Path report = run.resolve("report.html");
        assertTrue(Files.exists(report), "report.html written at the end of the run: " + console);
        assertTrue(console.contains("vtlab: report"), console);
        for (String f : List.of("hero-servlet-1.svg", "hero-servlet-1.png", "memory-servlet-1.svg")) {
            assertTrue(Files.size(run.resolve("charts").resolve(f)) > 1000, f);
        }
        String html = Files.readString(report);
        Matcher m = Pattern.compile("<canvas id=\"c-[^\"]+\" data-chart=\"([^\"]+)\"").matcher(html);
        int canvases = 0;
        while (m.find()) canvases++;
        // hero + memory + at least cpu, rss and threads over time for each of the two rows
        assertTrue(canvases >= 2 + 2 * 3, "charts in the page: " + canvases);

        Path artifacts = Lab.home().resolve("lab/target/report-it");
        Files.createDirectories(artifacts);
        ChromeDriver driver = start(Files.createTempDirectory("vtlab-chromium-"));
        try {
            driver.get(report.toUri().toString());
            JavascriptExecutor js = driver;
            new org.openqa.selenium.support.ui.WebDriverWait(driver, Duration.ofSeconds(20))
                    .until(d -> "complete".equals(js.executeScript("return document.readyState")));

            // every canvas has a Chart.js chart and painted pixels
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> drawn = (List<Map<String, Object>>) js.executeScript("""
                    return Array.from(document.querySelectorAll('canvas[data-chart]')).map(function (c) {
                      var px = 0;
                      if (c.width > 0 && c.height > 0) {
                        var d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                        for (var i = 3; i < d.length; i += 4) if (d[i] !== 0) px++;
                      }
                      return {id: c.getAttribute('data-chart'), chart: !!(window.Chart && Chart.getChart(c)), w: c.width, h: c.height, px: px};
                    });""");
            assertEquals(canvases, drawn.size());
            for (Map<String, Object> c : drawn) {
                assertEquals(Boolean.TRUE, c.get("chart"), "no chart on canvas " + c);
                assertTrue(((Number) c.get("w")).intValue() > 100 && ((Number) c.get("h")).intValue() > 80, "canvas too small: " + c);
                assertTrue(((Number) c.get("px")).intValue() > 1000, "canvas left blank: " + c);
            }

            // every evidence link lands on an element of the page
            @SuppressWarnings("unchecked")
            List<String> dangling = (List<String>) js.executeScript("""
                    return Array.from(document.querySelectorAll('.ev a')).map(function (a) { return a.getAttribute('href').slice(1); })
                      .filter(function (id) { return !document.getElementById(id); });""");
            assertEquals(List.of(), dangling);
            // measured verdicts cite only rows that matrix.csv says are ok
            @SuppressWarnings("unchecked")
            List<String> cited = (List<String>) js.executeScript("""
                    return Array.from(document.querySelectorAll('li.v-measured .ev a')).map(function (a) { return a.getAttribute('href').slice(1); })
                      .filter(function (id) { return id.indexOf('row-') === 0; });""");
            List<Map<String, String>> rows = Lab.rows(run);
            for (String id : cited) {
                Map<String, String> row = rows.get(Integer.parseInt(id.substring(4)) - 1);
                assertEquals("ok", row.get("status"), id + " cited as evidence: " + row);
            }
            assertTrue(driver.findElements(By.cssSelector("#verdicts li")).size() >= 1);

            // the rows table sorts by throughput, ascending then descending
            WebElement table = driver.findElement(By.cssSelector("table.rows"));
            List<WebElement> heads = table.findElements(By.cssSelector("thead th"));
            int col = heads.stream().map(WebElement::getText).toList().indexOf("req/s");
            assertTrue(col > 0, "req/s column");
            heads.get(col).click();
            List<Double> asc = column(js, col);
            heads.get(col).click();
            List<Double> desc = column(js, col);
            assertEquals(asc.stream().sorted().toList(), asc);
            assertEquals(asc.reversed(), desc);

            List<LogEntry> errors = driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                    .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue()).toList();
            assertEquals(List.of(), errors.stream().map(LogEntry::getMessage).toList(), "console errors");

            Files.write(artifacts.resolve("report.png"), fullPage(driver));
            Files.writeString(artifacts.resolve("run-folder.txt"), run + "\n");

            // each row's flame graph link, followed from the report: async-profiler's page draws its canvas, logs no error
            List<WebElement> flames = driver.findElements(By.cssSelector("a.flame"));
            assertEquals(rows.size(), flames.size(), "a flame graph link per row");
            String href = flames.getFirst().getAttribute("href");
            flames.getFirst().click();
            new org.openqa.selenium.support.ui.WebDriverWait(driver, Duration.ofSeconds(20))
                    .until(d -> d.getCurrentUrl().equals(href) && "complete".equals(js.executeScript("return document.readyState")));
            assertTrue(href.contains("/raw/") && href.endsWith(".flame.html"), href);
            assertTrue(driver.findElement(By.tagName("h1")).getText().endsWith("CPU samples of the profiled hold"), driver.findElement(By.tagName("h1")).getText());
            @SuppressWarnings("unchecked")
            Map<String, Object> flame = (Map<String, Object>) js.executeScript("""
                    var c = document.getElementById('canvas'), px = 0;
                    if (c && c.width > 0 && c.height > 0) {
                      var d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                      for (var i = 3; i < d.length; i += 4) if (d[i] !== 0) px++;
                    }
                    return {w: c ? c.width : 0, h: c ? c.height : 0, px: px, search: !!document.getElementById('search')};""");
            assertTrue(((Number) flame.get("w")).intValue() > 500 && ((Number) flame.get("h")).intValue() > 100, "flame canvas: " + flame);
            assertTrue(((Number) flame.get("px")).intValue() > 1000, "flame graph left blank: " + flame);
            assertEquals(Boolean.TRUE, flame.get("search"), "the flame graph's controls");
            // Tomcat's request path is drawn (a sleeping thread takes no CPU sample; serving the answer does): the
            // converter's search (its button prompts for the regexp) marks a share of it
            String matched = (String) js.executeScript("search('coyote'); return document.getElementById('matchval').textContent;");
            assertTrue(matched.matches("\\d+(\\.\\d+)?%") && Double.parseDouble(matched.replace("%", "")) > 0, "Tomcat's request path in the flame graph: " + matched);
            assertTrue(driver.findElement(By.id("match")).isDisplayed());
            List<LogEntry> flameErrors = driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                    .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue()).toList();
            assertEquals(List.of(), flameErrors.stream().map(LogEntry::getMessage).toList(), "console errors on the flame graph");
            Files.write(artifacts.resolve("flame.png"), fullPage(driver));

            // what changed from platform to virtual: the virtual row links the converter's differential graph against
            // the platform row, drawn in its diff colours (red grew, blue shrank, grey same, yellow new)
            driver.get(report.toUri().toString());
            List<WebElement> diffs = driver.findElements(By.cssSelector("a.flame-diff"));
            assertEquals(1, diffs.size(), "one differential flame graph: the virtual row against the platform row");
            String diffHref = diffs.getFirst().getAttribute("href");
            diffs.getFirst().click();
            new org.openqa.selenium.support.ui.WebDriverWait(driver, Duration.ofSeconds(20))
                    .until(d -> d.getCurrentUrl().equals(diffHref) && "complete".equals(js.executeScript("return document.readyState")));
            assertTrue(diffHref.contains("/charts/flame-diff-"), diffHref);
            assertTrue(driver.findElement(By.tagName("h1")).getText().matches("row \\d+ \\(virtual.*against row \\d+ \\(platform.*"),
                    driver.findElement(By.tagName("h1")).getText());
            @SuppressWarnings("unchecked")
            Map<String, Object> diff = (Map<String, Object>) js.executeScript("""
                    var c = document.getElementById('canvas'), tinted = 0;
                    if (c && c.width > 0 && c.height > 0) {
                      var d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                      for (var i = 0; i < d.length; i += 4) {
                        var r = d[i], g = d[i + 1], b = d[i + 2];
                        if ((r === 255 && g === b && g < 255) || (b === 255 && r === g && r < 255) || (r === 224 && g === 224 && b === 224)
                            || (r === 255 && g === 221 && b === 51)) tinted++;
                      }
                    }
                    return {tinted: tinted, w: c ? c.width : 0, h: c ? c.height : 0, maxdiff: maxdiff,
                            frames: levels.reduce(function (n, l) { return n + l.length; }, 0)};""");
            Files.write(artifacts.resolve("flame-diff.png"), fullPage(driver));
            Files.copy(run.resolve("charts").resolve(diffHref.substring(diffHref.lastIndexOf('/') + 1)), artifacts.resolve("flame-diff.html"),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            assertEquals(List.of(), driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                    .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue()).map(LogEntry::getMessage).toList(), "console errors on the differential graph");
            assertTrue(((Number) diff.get("tinted")).intValue() > 1000, "the differential graph's frames in its diff colours: " + diff);

            // the static SVG figure renders as an image of its own
            driver.get(run.resolve("charts/hero-servlet-1.svg").toUri().toString());
            WebElement svg = driver.findElement(By.tagName("svg"));
            assertTrue(svg.getSize().getWidth() > 500 && svg.getSize().getHeight() > 300, svg.getSize().toString());
            // an ok row is a bar; a row the machine flagged (busy, the JIT still compiling) is no evidence and is drawn as
            // a muted cross (two strokes) instead: the figure shows what the rows it got can carry
            long ok = rows.stream().filter(r -> "ok".equals(r.get("status"))).count();
            if (ok > 0) assertTrue(driver.findElements(By.tagName("rect")).size() > 2, "bars drawn in the SVG");
            else assertTrue(driver.findElements(By.cssSelector("line[stroke='#9a9a9a']")).size() >= 2 * rows.size(),
                    "every flagged row drawn muted in the SVG: " + rows.stream().map(r -> r.get("flags")).toList());
            Files.write(artifacts.resolve("hero.svg.png"), fullPage(driver));
        } finally {
            driver.quit();
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Double> column(JavascriptExecutor js, int col) {
        List<Object> v = (List<Object>) js.executeScript("return Array.from(document.querySelectorAll('table.rows tbody tr')).map("
                + "function (r) { return Number(r.cells[" + col + "].getAttribute('data-v')); });");
        return v.stream().map(o -> ((Number) o).doubleValue()).toList();
    }

    /** Debian's chromium through Debian's chromedriver: both paths given, so Selenium Manager never runs. */
    private static ChromeDriver start(Path profile) {
        System.setProperty("webdriver.chrome.driver", chromedriver.toString());
        ChromeOptions o = new ChromeOptions();
        o.setBinary(chromium.toFile());
        o.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions", "--hide-scrollbars",
                "--user-data-dir=" + profile, "--window-size=1400,1000");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        o.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(chromedriver.toFile()).usingAnyFreePort().build();
        return new ChromeDriver(service, o);
    }

    /** The whole page, not only the window: Chrome's DevTools screenshot beyond the viewport. */
    private static byte[] fullPage(ChromeDriver driver) {
        Number w = (Number) driver.executeScript("return document.documentElement.scrollWidth");
        Number h = (Number) driver.executeScript("return Math.min(document.documentElement.scrollHeight, 16000)");
        Map<String, Object> shot = driver.executeCdpCommand("Page.captureScreenshot", Map.of("format", "png", "captureBeyondViewport", true,
                "clip", Map.of("x", 0, "y", 0, "width", w, "height", h, "scale", 1)));
        return Base64.getDecoder().decode((String) shot.get("data"));
    }
}
