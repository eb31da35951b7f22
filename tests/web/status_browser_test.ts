/**
 * The operator's status screen in headless Chromium against a real server: the first account
 * sees the service's facts (version, scheduled jobs, carrier budgets, recent problems), another
 * account gets "not found" from the same path. axe on the screen; no page error.
 */
import assert from "node:assert/strict";
import { axeFindings, browserSkip, launchBrowser, waitForText } from "../chromium.ts";
import { testApp } from "../helpers.ts";
import { serve } from "../serve.ts";
import type { Page } from "../../scripts/puppeteer.d.ts";
import { VERSION } from "../../src/version.ts";

const text = (page: Page, selector: string) =>
  page.$eval(selector, (e) => (e as unknown as { innerText: string }).innerText);

async function register(page: Page, base: string, email: string) {
  await page.goto(`${base}/register`, { waitUntil: "networkidle0" });
  await page.type("input[name=email]", email);
  await page.type("input[name=password]", "correct horse battery");
  await page.click("button[type=submit]");
  await page.waitForFunction(`document.querySelector("h1")?.textContent === "Orders"`);
}

Deno.test({
  name: "dashboard status: the operator sees the service's status, another account does not",
  ignore: browserSkip("status_browser_test"),
  async fn() {
    await using ctx = await testApp({ DHL_API_KEY: "dhl-key", TRACKING_DAILY_BUDGET: "100" });
    ctx.deps.log.error("smtp delivery failed", { error: "disk full" });
    await using server = serve(ctx.app);
    await using browser = await launchBrowser();
    const page = await browser.page();

    await register(page, server.url, "operator@example.com");
    // The operator finds the screen in the account section's navigation.
    await page.goto(`${server.url}/account`, { waitUntil: "networkidle0" });
    await page.click(".subnav a::-p-text(Service status)");
    await page.waitForSelector("#st-cron");
    assert.equal(new URL(page.url()).pathname, "/account/status");
    const main = await text(page, "main");
    assert.match(main, new RegExp(`Version\\s+${VERSION.replaceAll(".", "\\.")}`));
    assert.match(main, /outbox drain/);
    assert.match(main, /dhl \(tracker\)\s+80 calls left/);
    assert.match(main, /smtp delivery failed\s+error\s+1/);
    // The problem's own details (here an error text) never reach the screen.
    assert.doesNotMatch(main, /disk full/);
    assert.deepEqual(await axeFindings(page), []);

    // Another account: the same path, no status.
    await page.evaluate(`localStorage.clear(); sessionStorage.clear()`);
    await register(page, server.url, "someone@example.com");
    await page.goto(`${server.url}/account`, { waitUntil: "networkidle0" });
    await waitForText(page, ".subnav a", "API keys");
    assert.equal(
      await page.evaluate(`document.querySelector(".subnav").textContent`).then(
        (t) => String(t).includes("Service status"),
      ),
      false,
    );
    await page.goto(`${server.url}/account/status`, { waitUntil: "networkidle0" });
    await waitForText(page, "p.empty", "Not found");
    assert.equal(await page.evaluate(`document.querySelector("#st-cron") === null`), true);
    assert.deepEqual(browser.errors, []);
  },
});
