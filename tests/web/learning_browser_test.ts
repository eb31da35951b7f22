/**
 * Learning from a correction in the dashboard (headless Chromium, a real server): an edit of an
 * email order saved, the order page says what the reader learned, Undo deletes it; learned again,
 * the templates screen lists it apart from hand-written templates, with its order, and deletes it.
 */
import assert from "node:assert/strict";
import type { Page } from "../../scripts/puppeteer.d.ts";
import { axeFindings, browserSkip, launchBrowser, waitForText } from "../chromium.ts";
import { FIRST_PLAIN, PLAIN_SENDER, plainMail } from "../intake/learning_mails.ts";
import { serve } from "../serve.ts";
import { testApp } from "../helpers.ts";

const text = (page: Page, selector: string) =>
  page.$eval(selector, (e) => (e as unknown as { innerText: string }).innerText);

/** Replaces a field's value by typing, as a person does. */
async function retype(page: Page, selector: string, value: string) {
  await page.click(selector, { count: 3 });
  await page.keyboard.press("Backspace");
  await page.type(selector, value);
}

Deno.test({
  name: "dashboard: an edit of an email order teaches the reader, with a note and an Undo",
  ignore: browserSkip("learning_browser_test"),
  async fn() {
    await using ctx = await testApp();
    await using server = serve(ctx.app);
    await using browser = await launchBrowser();
    const page = await browser.page();
    const token = () =>
      page.evaluate(`JSON.parse(localStorage.getItem("order-tracker.session")).token`) as Promise<
        string
      >;
    const api = async (path: string, method = "GET", body?: unknown) => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${await token()}`, "content-type": "application/json" },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return await res.json();
    };
    const learned = async () =>
      (await api("/api/templates/custom")).items.filter((t: { learned?: unknown }) => t.learned);

    await page.goto(`${server.url}/register`, { waitUntil: "networkidle0" });
    await page.type("input[name=email]", "lee@example.com");
    await page.type("input[name=password]", "correct horse battery");
    await page.type("input[name=username]", "lee");
    await page.click("button[type=submit]");
    await page.waitForFunction(`document.querySelector("h1")?.textContent === "Orders"`);
    const { orderId } = await api("/api/email/import", "POST", { raw: plainMail(FIRST_PLAIN) });

    // Correct the order number (the shop's own): saved, the page says what was learned; Undo deletes it.
    await page.goto(`${server.url}/orders/${orderId}`, { waitUntil: "networkidle0" });
    await retype(page, "input[name=orderNumber]", FIRST_PLAIN.shopOrder);
    await page.click("button::-p-text(Save changes)");
    await page.waitForSelector(".learned p");
    assert.equal(
      await text(page, ".learned p"),
      `Learned for mail from ${PLAIN_SENDER}: order number`,
    );
    assert.deepEqual(await axeFindings(page), []);
    assert.equal((await learned()).length, 1);
    await page.click(".learned button::-p-text(Undo)");
    await waitForText(page, ".learned p", "Undone");
    assert.deepEqual(await learned(), []);

    // A value that is not in the mail teaches nothing, and the page says nothing.
    await retype(page, "input[name=store]", "Somewhere else");
    await page.click("button::-p-text(Save changes)");
    await page.waitForSelector(".saved");
    await ctx.deps.background.drain();
    assert.deepEqual(await learned(), []);

    // The total, learned: the templates screen lists it apart, with its order, and deletes it.
    await retype(page, "input[name=total]", FIRST_PLAIN.total);
    await page.click("button::-p-text(Save changes)");
    await waitForText(page, ".learned p", "Learned for mail from");
    assert.equal(await text(page, ".learned p"), `Learned for mail from ${PLAIN_SENDER}: total`);
    await page.goto(`${server.url}/intake/templates`, { waitUntil: "networkidle0" });
    await page.waitForSelector("#learned");
    const section = "section[aria-labelledby=learned]";
    assert.match(await text(page, `${section} h3`), new RegExp(`Learned: ${PLAIN_SENDER}`));
    assert.equal(
      await page.$eval(`${section} a`, (a) => (a as unknown as { pathname: string }).pathname),
      `/orders/${orderId}`,
    );
    assert.match(await text(page, "section[aria-labelledby=custom]"), /None yet/);
    assert.deepEqual(await axeFindings(page), []);
    await page.click(`${section} button::-p-text(Delete)`);
    await page.waitForSelector("dialog[open] button[type=submit]");
    await page.click("dialog[open] button[type=submit]");
    await page.waitForFunction(`!document.querySelector("#learned")`);
    assert.deepEqual(await learned(), []);
  },
});
