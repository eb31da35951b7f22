/**
 * The reference page in a real browser: Debian's headless Chromium, driven over the Chrome
 * DevTools Protocol, loads `GET /api` from a loopback server; every console message, uncaught
 * exception and browser log entry (failed loads, CSP violations) of level error fails the test.
 */
import assert from "node:assert/strict";
import { testApp } from "../helpers.ts";
import { serve } from "../serve.ts";
import { chromium, errorsIn, navigate, openPage, skipBrowser, waitFor } from "../browser.ts";

Deno.test({
  name: "reference page: loads in headless Chromium without console errors and lists the endpoints",
  ignore: skipBrowser,
  async fn() {
    assert.ok(chromium, "CI is set but Chromium is not installed (apt-get install chromium)");
    await using ctx = await testApp();
    await using server = serve(ctx.app);
    const { cdp, close } = await openPage();
    try {
      await navigate(cdp, `${server.url}/api`);
      const paths = await waitFor(async () => {
        const found = await cdp.evaluate<string[]>(
          `[...document.querySelectorAll(".opblock-summary-path")].map((e) => e.textContent.trim())`,
        );
        return found.length ? found : null;
      }, "Swagger UI to render the operations");
      assert.ok(paths.includes("/api/healthz"), `listed: ${paths.join(", ")}`);
      const title = await cdp.evaluate<string>(`document.querySelector(".title")?.textContent`);
      assert.match(title, /Order-Tracking Service/);

      // Late failures (lazy assets, CSP reports) have a moment to arrive.
      await new Promise((r) => setTimeout(r, 500));
      assert.deepEqual(errorsIn(cdp.events), []);
    } finally {
      await close();
    }
  },
});
