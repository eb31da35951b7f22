/**
 * The reference page in a real browser: Debian's headless Chromium (puppeteer-core) loads
 * `GET /api` from a loopback server; every console error, uncaught exception, failed load and
 * CSP violation fails the test.
 */
import assert from "node:assert/strict";
import { browserSkip, launchBrowser } from "../chromium.ts";
import { testApp } from "../helpers.ts";
import { serve } from "../serve.ts";

Deno.test({
  name: "reference page: loads in headless Chromium without console errors and lists the endpoints",
  ignore: browserSkip("docs_browser_test"),
  async fn() {
    await using ctx = await testApp();
    await using server = serve(ctx.app);
    await using browser = await launchBrowser();
    const page = await browser.page();
    await page.goto(`${server.url}/api`, { waitUntil: "load" });
    await page.waitForSelector(".opblock-summary-path", { timeout: 30_000 });
    const paths = await page.$$eval(
      ".opblock-summary-path",
      (nodes) => nodes.map((n) => n.textContent?.trim() ?? ""),
    );
    assert.ok(paths.includes("/api/healthz"), `listed: ${paths.join(", ")}`);
    assert.match(await page.$eval(".title", (e) => e.textContent ?? ""), /Order-Tracking Service/);
    // Late failures (lazy assets, CSP reports) have a moment to arrive.
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(browser.errors, []);
  },
});
