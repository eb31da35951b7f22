/**
 * A person's workflow over the dashboard in headless Chromium, against a real server: register,
 * create an order, set its sale price and status in the table, add a chat bot and post a checkout
 * to its URL, import an email, read the order's messages, give it a tracking number (its carrier
 * recognised as it is typed) and see the carrier's scans (a fake UPS on loopback), subscribe a webhook receiver and send a test, create an API key and use it, sign out
 * everywhere else, change the password, reset it from the mailed link and review what stayed,
 * export and delete the account. Every main screen passes an axe-core scan with no serious or critical
 * finding, and the page reports no error (console, exception, failed load, CSP violation).
 *
 * With SCREENSHOTS=<dir> set, the main screens are saved there at 1440 and 360 px wide
 * (docs/dashboard/ holds the committed set: `SCREENSHOTS=docs/dashboard deno test -A <this>`).
 */
import assert from "node:assert/strict";
import type { Page } from "../../scripts/puppeteer.d.ts";
import {
  axeFindings,
  browserSkip,
  launchBrowser,
  type TestBrowser,
  waitFor,
  waitForText,
} from "../chromium.ts";
import { journey, upsAnswer, upsNumber } from "../tracking/answers.ts";
import { startFakes } from "../tracking/fakes.ts";
import { startDovecot } from "../../scripts/dovecot.ts";
import { fixture } from "../intake/helpers.ts";
import { startReceiver } from "../net/receiver.ts";
import { serve } from "../serve.ts";
import { expectedSignature, webhookApp } from "../webhooks/helpers.ts";

const SHOTS = Deno.env.get("SCREENSHOTS");
const EMAIL = "pat@example.com";
/** A store's checkout notification as its bot posts it (tests/fixtures/chat). */
const CHECKOUT = new URL("../fixtures/chat/shopify/flow-new-order-kith.json", import.meta.url);

/** Sets a field's value the way a paste does, with the input event the page listens for. */
async function paste(page: Page, selector: string, value: string) {
  await page.evaluate(`(() => {
    const el = document.querySelector(${JSON.stringify(selector)});
    el.value = ${JSON.stringify(value)};
    el.dispatchEvent(new Event("input", { bubbles: true }));
  })()`);
}

const text = (page: Page, selector: string) =>
  page.$eval(selector, (e) => (e as unknown as { innerText: string }).innerText);

/** Waits until the page's main heading says `title` (the screen has changed). */
const heading = (page: Page, title: string) =>
  page.waitForFunction(
    `document.querySelector("h1")?.textContent === ${JSON.stringify(title)}`,
    { timeout: 10_000 },
  );

/** No serious or critical axe finding on the screen shown now; screenshots when asked. */
async function check(browser: TestBrowser, page: Page, name: string) {
  await page.waitForNetworkIdle({ idleTime: 100 });
  assert.deepEqual(await axeFindings(page), [], `axe on ${name}`);
  if (!SHOTS) return;
  await page.screenshot({ path: `${SHOTS}/${name}-1440.png`, fullPage: true });
  const narrow = await browser.page({ width: 360, height: 740 });
  await narrow.goto(page.url(), { waitUntil: "networkidle0" });
  assert.deepEqual(await axeFindings(narrow), [], `axe on ${name} at 360 px`);
  await narrow.screenshot({ path: `${SHOTS}/${name}-360.png`, fullPage: true });
  await narrow.close();
}

/** Money as the dashboard shows it (en-US, the test browser's locale). */
const cents = (n: number) =>
  (n / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Waits until the insights screen's profit figure reads `expected`. */
const profitIs = (page: Page, expected: string) =>
  waitFor(
    async () => (await text(page, ".big .profit").catch(() => "")) === expected || null,
    `a profit of ${expected}`,
  );

/** The session the page keeps, for checking what it did through the API. */
async function token(page: Page): Promise<string> {
  return await page.evaluate(
    `JSON.parse(localStorage.getItem("order-tracker.session")).token`,
  ) as string;
}

Deno.test({
  name: "dashboard: a person's workflow in headless Chromium, accessible and error-free",
  ignore: browserSkip("dashboard_browser_test"),
  async fn() {
    await using receiver = startReceiver({ reply: () => new Response(null, { status: 204 }) });
    await using carriers = startFakes();
    await using dovecot = await startDovecot();
    // DHL has no credentials here: its orders say live tracking is not set up. No mail
    // receiver, no outgoing mail and no BASE_URL either: the screens say so where it matters.
    const { DHL_API_KEY: _dhl, ...carrierEnv } = carriers.env;
    await using ctx = await webhookApp({ env: carrierEnv });
    await using server = serve(ctx.app);
    await using browser = await launchBrowser();
    const page = await browser.page();
    const api = async (path: string, init: RequestInit = {}, auth?: string) => {
      const headers = { authorization: `Bearer ${auth ?? await token(page)}` };
      const res = await fetch(`${server.url}${path}`, { ...init, headers });
      return { status: res.status, body: await res.json() };
    };

    // Signed out, the dashboard asks to sign in; a wrong password is said next to the form.
    await page.goto(`${server.url}/`, { waitUntil: "networkidle0" });
    assert.equal(new URL(page.url()).pathname, "/sign-in");
    await check(browser, page, "sign-in");
    await page.type("input[name=email]", EMAIL);
    await page.type("input[name=password]", "wrong password");
    await page.click("button[type=submit]");
    await page.waitForSelector("form [role=alert]");
    assert.equal(await text(page, "form [role=alert]"), "Invalid email or password");

    // The password reset's pages: asking for a link, and the link's page without its token.
    await page.click("a[href='/forgot-password']");
    await heading(page, "Forgot password");
    await check(browser, page, "forgot-password");
    await page.goto(`${server.url}/reset-password`, { waitUntil: "networkidle0" });
    await waitForText(page, "[role=alert]", "needs the link");
    await check(browser, page, "reset-password");

    // Register.
    await page.goto(`${server.url}/sign-in`, { waitUntil: "networkidle0" });
    await page.click("a[href='/register']");
    await heading(page, "Create an account");
    await check(browser, page, "register");
    await page.type("input[name=email]", EMAIL);
    await page.type("input[name=password]", "correct horse battery");
    await page.type("input[name=username]", "pat");
    await page.click("button[type=submit]");
    await heading(page, "Orders");

    // Create an order, then price and ship it in the table.
    await page.click("button::-p-text(New order)");
    await page.type("input[name=itemSummary]", "Desk lamp");
    await page.type("input[name=orderNumber]", "A-100");
    await page.type("input[name=costCents]", "10.00");
    await page.click("button::-p-text(Create order)");
    await waitForText(page, "tbody a", "Desk lamp");
    const price = "input.price";
    await page.click(price);
    await page.type(price, "25");
    await page.keyboard.press("Enter");
    await waitFor(
      // In the workspace currency, with its symbol ("$15.00").
      async () => /^\D+15\.00$/.test((await text(page, "td[data-label=Profit]")).trim()) || null,
      "the profit",
    );
    await page.select("select.status", "shipped");
    await waitFor(async () => {
      const list = await api("/api/orders");
      return list.body.items[0].status === "shipped" ? list.body.items[0] : null;
    }, "the status change");
    const [lamp] = (await api("/api/orders")).body.items;
    assert.deepEqual([lamp.salePriceCents, lamp.costCents, lamp.userEdited], [2500, 1000, [
      "salePriceCents",
      "status",
    ]]);
    // A sale price that is not money is refused in place, next to the field.
    await page.click(price, { count: 3 });
    await page.type(price, "lots");
    await page.keyboard.press("Enter");
    await page.waitForSelector("td[data-label='Sale price'] .error");
    assert.equal(
      await text(page, "td[data-label='Sale price'] .error"),
      "Enter an amount like 12.50",
    );

    // Insights: the profit so far.
    await page.click("nav a::-p-text(Insights)");
    await heading(page, "Insights");
    await profitIs(page, "15.00");

    // A chat bot: a checkout posted to its URL becomes an order, listed with the bot's posts.
    await page.click("nav a::-p-text(Intake)");
    await heading(page, "Chat bots");
    await page.type("input[name=name]", "Checkout bot");
    await page.click("button::-p-text(Add bot)");
    await page.waitForSelector(".cards code.url");
    const botUrl = new URL(await text(page, ".cards code.url"));
    const posted = await fetch(`${server.url}${botUrl.pathname}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: Deno.readTextFileSync(CHECKOUT),
    });
    assert.equal(posted.status, 202);
    assert.equal((await posted.json()).merged, false);
    await page.click("button::-p-text(Recent posts)");
    await waitForText(page, ".messages a", "Open the order");
    assert.match(await text(page, ".messages li"), /Kith Nelson Crewneck - Sand/);
    await waitForText(page, ".stats", "1 created an order");
    // Without billing there is no plan limit to count; the URL says localhost, and why.
    assert.doesNotMatch(await text(page, ".stats"), /plan limit/);
    assert.match(
      await text(page, ".cards .notice"),
      /^These links say http:\/\/localhost:\d+: only this machine can open them\. .*BASE_URL/,
    );
    // A private address for updates is refused next to its field; the embed copier's URL.
    await page.type("input[name=updatesWebhook]", "https://10.0.0.1/hook");
    await page.click("button::-p-text(Save settings)");
    await page.waitForSelector("input[name=updatesWebhook][aria-invalid=true]");
    // In people's words: no field-name prefix; the address it leads to and the setting named.
    assert.equal(
      await text(page, "input[name=updatesWebhook] ~ .error"),
      "URL cannot point at private or loopback addresses (it leads to 10.0.0.1). On a " +
        "development machine, the server's operator can allow that address with " +
        "ALLOWED_PRIVATE_ADDRESSES.",
    );
    await page.click("button::-p-text(Get a submission URL)");
    await page.waitForSelector("#embed-copier ~ .code-row code.url");
    assert.match(
      await text(page, "#embed-copier ~ .code-row code.url"),
      /\/api\/embed-copier\/submit\//,
    );
    await check(browser, page, "bots");

    // The bot's order appears in the table; its sale price set there changes the profit.
    await page.click("nav a::-p-text(Orders)");
    await waitForText(page, "tbody a", "Kith Nelson Crewneck - Sand");
    const kith = (await api("/api/orders")).body.items[0];
    assert.equal(kith.itemSummary, "Kith Nelson Crewneck - Sand");
    // The bot order's own field, focused and emptied first (not the first price field of the
    // table, whatever row the list shows first while it settles).
    const kithPrice = `tr:has(a[href="/orders/${kith.id}"]) ${price}`;
    await page.waitForSelector(kithPrice);
    await page.click(kithPrice, { count: 3 });
    await page.type(kithPrice, "180");
    await page.keyboard.press("Enter");
    // The chat post's total is in the workspace currency (USD for this account): its cost.
    assert.deepEqual([kith.total, kith.costCents], ["$157.69 USD", 15769]);
    const kithProfit = 18000 - 15769;
    await waitFor(async () => {
      const order = (await api(`/api/orders/${kith.id}`)).body.order;
      return order.salePriceCents === 18000 || null;
    }, "the bot order's sale price");
    await page.click("nav a::-p-text(Insights)");
    await heading(page, "Insights");
    await profitIs(page, cents(1500 + kithProfit));
    // A recurring cost is taken off; a share card of the profit has its image.
    await page.click(".subnav a::-p-text(Recurring costs)");
    await heading(page, "Recurring costs");
    await page.type("input[name=name]", "Proxy plan");
    await page.type("input[name=costCents]", "5");
    await page.click("button::-p-text(Add cost)");
    await waitForText(page, "tbody th", "Proxy plan");
    await check(browser, page, "costs");
    await page.click(".subnav a::-p-text(Profit and calendar)");
    await heading(page, "Insights");
    await profitIs(page, cents(1500 + kithProfit - 500));
    await page.waitForSelector(".calendar .day:not(.quiet)");
    await page.click("button::-p-text(Share this profit)");
    await page.waitForSelector(".made img");
    await waitFor(
      () =>
        page.$eval(".made img", (i) => (i as unknown as { naturalWidth: number }).naturalWidth)
          .then((w) => w === 1200 || null),
      "the share card's image",
    );
    await check(browser, page, "insights");
    await page.click(".subnav a::-p-text(Share cards)");
    await heading(page, "Share cards");
    await page.waitForSelector(".shares article h2");
    await check(browser, page, "shares");
    await page.click(".subnav a::-p-text(Leaderboard)");
    await heading(page, "Leaderboard");
    await check(browser, page, "leaderboard");

    // A forwarding source, then an email imported in the inbox.
    await page.click("nav a::-p-text(Intake)");
    await heading(page, "Chat bots");
    await page.click(".subnav a::-p-text(Email sources)");
    await heading(page, "Email intake");
    await page.type("input[name=name]", "Forwarded orders");
    await page.click("button::-p-text(Add source)");
    await waitForText(page, "code", "@");
    assert.match(await text(page, ".cards code"), /^[\w-]+@inbound\.localhost$/);
    assert.match(
      await text(page, ".cards .notice"),
      /^Mail cannot reach this address yet: this server has no mail receiver .*SMTP_PORT.*INBOUND_MAIL_KEY.*MAIL_DOMAIN/,
    );
    // Its mail read again: a rebuild runs in the background and the page follows its progress
    // to the end; 0 days is refused by the field.
    await paste(page, "input[name=sinceDays]", "0");
    await page.click("button::-p-text(Read again)");
    await page.waitForSelector("input[name=sinceDays][aria-invalid=true]");
    await paste(page, "input[name=sinceDays]", "7");
    await page.click("button::-p-text(Read again)");
    await waitForText(page, ".saved", "Done: 0 messages read, 0 stored, 0 orders read again");
    // A mailbox over IMAP (a real Dovecot): the port follows the TLS box; a wrong password is
    // said by "Test connection"; saved anyway, its poll fails and the source shows as failing;
    // the password corrected and tested in the dashboard, the next poll reads it.
    await page.select("select[name=kind]", "imap");
    await page.waitForSelector("input[name=host]");
    const portOf = () =>
      page.$eval(
        ".form[aria-label='Add an email source'] input[name=port]",
        (e) => (e as unknown as { value: string }).value,
      );
    assert.equal(await portOf(), "993");
    await page.click(".form[aria-label='Add an email source'] input[name=tls]");
    assert.equal(await portOf(), "143", "the port follows the TLS box");
    const add = ".form[aria-label='Add an email source']";
    await page.type(`${add} input[name=name]`, "Work mailbox");
    await page.type(`${add} input[name=host]`, "127.0.0.1");
    await page.click(`${add} input[name=port]`, { count: 3 });
    await page.type(`${add} input[name=port]`, String(dovecot.port));
    await page.type(`${add} input[name=username]`, dovecot.username);
    await page.type(`${add} input[name=password]`, "not the password");
    await page.click(`${add} button::-p-text(Test connection)`);
    await waitForText(page, `${add} .error`, "Sign-in failed");
    await page.click(`${add} button::-p-text(Add source)`);
    await page.waitForSelector("h2::-p-text(Work mailbox)");
    const mailboxSource = (await api("/api/email-sources")).body.items
      .find((s: { kind: string }) => s.kind === "imap");
    const card = `article[aria-labelledby=src-${mailboxSource.id}]`;
    await page.click(`${card} button::-p-text(Check now)`);
    await waitForText(page, `${card} .tag.off`, "Failing");
    assert.match(await text(page, `${card} p.error`), /^Failing: Sign-in failed/);
    await check(browser, page, "email-sources-failing");
    await page.type(`${card} input[name=password]`, dovecot.password);
    await page.click(`${card} button::-p-text(Test connection)`);
    await waitForText(page, `${card} .okay`, "Signed in; folder INBOX opened.");
    await page.click(`${card} button::-p-text(Save connection)`);
    await waitForText(page, `${card} .saved`, "Saved");
    await page.click(`${card} button::-p-text(Check now)`);
    await waitForText(page, `${card} .tag.on`, "Active");
    await check(browser, page, "email-sources");
    await page.click(".subnav a::-p-text(Inbox)");
    await heading(page, "Inbox");
    await paste(page, "textarea[name=raw]", fixture("amazon/ordered.eml"));
    await page.click("button::-p-text(Import)");
    await page.waitForSelector("p.notice a");
    await page.waitForSelector(".messages li");
    await check(browser, page, "inbox");
    const orders = (await api("/api/orders")).body;
    assert.equal(orders.total, 3);
    assert.equal(
      orders.items.find((o: { store?: string }) => o.store === "Amazon").receivedAt.slice(0, 4),
      "2026",
      "dated by the message",
    );
    const shoe = orders.items.find((o: { store?: string }) => o.store === "Amazon");
    assert.equal(shoe.orderNumber, "113-4820917-5531468");

    // The order's page lists the email that made it.
    await page.click("p.notice a");
    await heading(page, shoe.itemSummary);
    await page.waitForSelector(".history li");
    assert.match(await text(page, ".history li"), /Ordered: "Nike Men's Revolution 7\.\.\."/);
    // What the email set, in one sentence of people's words (not field names), dated in the
    // account's timezone.
    const zone = (await api("/api/auth/me")).body.user.timezone;
    const [made] = (await api(`/api/orders/${shoe.id}/messages`)).body.items;
    const day = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: zone })
      .format(new Date(made.sentAt));
    assert.equal(made.sentAt, shoe.receivedAt, "the email's own date");
    const said = await text(page, ".history li .provenance");
    assert.match(said, /^Cost, .*item name, order number, .* and total from the order email of /);
    assert.ok(said.endsWith(` of ${day}.`), said);
    assert.doesNotMatch(said, /itemSummary|receivedAt|status/);
    // A tracking number typed is recognised; saved, the carrier's scans are shown.
    const parcel = upsNumber(7);
    const stages = ["label", "transit"] as const;
    carriers.ups.parcels.set(
      parcel,
      upsAnswer(parcel, journey("2026-01-05T14:00:00Z", [...stages])),
    );
    await page.type("input[name=trackingNumber]", parcel);
    await waitForText(page, "button", "Use UPS");
    await page.click("button::-p-text(Use UPS)");
    assert.equal(
      await page.$eval("input[name=carrier]", (e) => (e as unknown as { value: string }).value),
      "ups",
    );
    await page.click("button::-p-text(Save changes)");
    await page.waitForSelector(".scans li");
    assert.match(await text(page, "#carrier-events ~ p"), /^UPS: In transit/);
    assert.deepEqual(
      await page.$$eval(".scans li p:first-child", (ps) => ps.map((p) => p.textContent)),
      ["Arrived at facility", "Shipping label created"],
    );
    await check(browser, page, "order");

    // An order in another currency than the workspace's has no cost until the person says so;
    // one on a carrier without credentials says so quietly, with nothing to retry.
    const euro = await fetch(`${server.url}/api/orders`, {
      method: "POST",
      headers: { authorization: `Bearer ${await token(page)}` },
      body: JSON.stringify({
        itemSummary: "Wool scarf",
        total: "45,00 €",
        trackingNumber: "JJD000390007827481153",
        carrier: "dhl",
        estimatedDelivery: "2026-12-03",
      }),
    }).then((r) => r.json());
    await page.goto(`${server.url}/orders/${euro.order.id}`, { waitUntil: "networkidle0" });
    await heading(page, "Wool scarf");
    await page.waitForSelector("#carrier-events ~ p.sub");
    assert.equal(
      await text(page, "#carrier-events ~ p.sub"),
      "Live tracking for DHL eCommerce / Paket is not set up on this server.",
    );
    const panel = await text(page, "section[aria-labelledby=carrier-events]");
    assert.doesNotMatch(panel, /Check again/, "nothing to retry");
    assert.equal(
      await page.$$eval("section[aria-labelledby=carrier-events] .error", (e) => e.length),
      0,
      "not an error",
    );
    assert.match(await text(page, ".notice"), /^Total 45,00 € as read; cost not set/);
    await check(browser, page, "order-cost-not-set");
    await page.click("button::-p-text(Use 45.00 as the cost)");
    await waitFor(async () => {
      const order = (await api(`/api/orders/${euro.order.id}`)).body.order;
      return order.costCents === 4500 || null;
    }, "the cost used");
    await page.click("a::-p-text(← Orders)");
    await heading(page, "Orders");
    // The list shows the carrier by its brand and where the order came from.
    await waitForText(page, "td[data-label=Shipping]", "UPS");
    await waitForText(page, "td[data-label=Shipping]", "DHL eCommerce / Paket");
    await waitForText(page, "th .sub", "from email");
    // Amounts carry their currency: the total as read, costs and profit in the workspace's.
    await waitForText(page, "td[data-label=Total]", "45,00 €");
    const { currency } = (await api("/api/settings", { method: "POST", body: "{}" })).body.settings;
    const inCurrency = new Intl.NumberFormat("en-US", { style: "currency", currency });
    await waitForText(page, "td[data-label=Cost]", inCurrency.format(45));
    await check(browser, page, "orders");
    // At 360 px the columns fold into the row: each cell on its own line under its label, the
    // carrier and the estimated delivery among them.
    const narrow = await browser.page({ width: 360, height: 740 });
    await narrow.goto(page.url(), { waitUntil: "networkidle0" });
    await waitForText(narrow, "tbody tr", "Wool scarf");
    const folded = await narrow.$$eval("tbody tr", (rows) =>
      rows.map((row) => {
        const cell = row.querySelector("td[data-label=Shipping]")!;
        const { getComputedStyle } = globalThis as unknown as {
          getComputedStyle: (e: unknown, pseudo?: string) => { display: string; content: string };
        };
        return {
          text: (row as unknown as { innerText: string }).innerText,
          display: getComputedStyle(cell).display,
          label: getComputedStyle(cell, "::before").content,
          right: row.getBoundingClientRect().right,
        };
      }));
    const scarf = folded.find((r) => r.text.includes("Wool scarf"));
    assert.ok(scarf, "the scarf's row");
    assert.equal(scarf.display, "grid", "folded");
    assert.equal(scarf.label, '"Shipping"');
    assert.match(scarf.text, /DHL eCommerce \/ Paket · expected Dec 3, 2026/);
    assert.ok(scarf.right <= 360, `row within 360 px (${scarf.right})`);
    await narrow.close();

    // A template's live preview reads a pasted email.
    await page.goto(`${server.url}/intake/templates`, { waitUntil: "networkidle0" });
    await heading(page, "Templates");
    await paste(page, "textarea[name=raw]", fixture("amazon/ordered.eml"));
    await page.waitForSelector(".preview-out dl");
    assert.match(await text(page, ".preview-out"), /113-4820917-5531468/);
    await check(browser, page, "templates");

    // A webhook: a private address is refused next to the URL; a local receiver works.
    await page.click("nav a::-p-text(Webhooks)");
    await heading(page, "Webhooks");
    await page.type("input[name=url]", "https://10.0.0.1/hook");
    await page.click("button::-p-text(Add subscription)");
    await page.waitForSelector("input[name=url][aria-invalid=true]");
    assert.match(
      await text(page, "input[name=url] ~ .error"),
      /^URL cannot point at private .*10\.0\.0\.1.*ALLOWED_PRIVATE_ADDRESSES\.$/,
    );
    await page.click("input[name=url]", { count: 3 });
    await page.type("input[name=url]", receiver.url("/hook"));
    await page.click("button::-p-text(Add subscription)");
    await page.waitForSelector(".once code");
    const secret = await text(page, ".once code");
    assert.match(secret, /^whsec_/);
    // The list is read again after the create: under load it can follow the secret.
    await page.waitForSelector("button::-p-text(Send test)");
    await page.click("button::-p-text(Send test)");
    await waitForText(page, ".okay", "Delivered");
    const [delivery] = await receiver.waitFor(1);
    assert.equal(delivery.headers.get("x-service-test"), "true");
    assert.equal(
      delivery.headers.get("x-service-signature"),
      await expectedSignature(secret, delivery.body),
    );
    // Its events, changed in place.
    await page.click("button::-p-text(Edit events)");
    await page.click("input[name='type-order.delivered']");
    await page.click("button::-p-text(Save events)");
    await waitForText(page, "button", "Edit events");
    const [sub] = (await api("/api/webhook-subscriptions")).body.items;
    assert.deepEqual(sub.eventTypes, ["order.created", "order.shipped"]);
    await check(browser, page, "webhooks");
    await page.click(".subnav a::-p-text(Delivery log)");
    await heading(page, "Delivery log");
    await page.waitForSelector("table.log tbody tr");
    await check(browser, page, "webhook-log");

    // An API key, shown once, works at once.
    await page.click("nav a::-p-text(Account)");
    await heading(page, "Account");
    // No outgoing mail: the verification link went to the server log, never "Sent to".
    await page.waitForSelector("button::-p-text(Send the link)");
    await page.click("button::-p-text(Send the link)");
    await waitForText(page, "[role=status]", "server log");
    assert.equal(
      await text(page, "[role=status]::-p-text(server log)"),
      "This server sends no mail: the link went to the server log. Ask its operator for it.",
    );
    await page.waitForSelector("select[name=currency]");
    await check(browser, page, "account");
    await page.click(".subnav a::-p-text(API keys)");
    await heading(page, "API keys");
    await page.type("input[name=name]", "Shop sync");
    await page.click("button::-p-text(Create key)");
    await page.waitForSelector(".once code");
    const key = await text(page, ".once code");
    assert.match(key, /^sk_/);
    assert.equal((await api("/api/orders", {}, key)).body.total, 4);
    await check(browser, page, "api-keys");

    // Sign-in and security: no linked sign-in; the other sessions end; the password changes.
    const signIn = (password: string) =>
      fetch(`${server.url}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: EMAIL, password }),
      }).then((r) => r.json());
    const elsewhere = (await signIn("correct horse battery")).token as string;
    await page.click(".subnav a::-p-text(Profile and data)");
    await heading(page, "Account");
    await waitForText(page, ".empty", "No sign-in service is linked");
    await page.click("button::-p-text(Sign out everywhere else)");
    await waitForText(page, "[role=status]", "1 other session ended");
    assert.equal((await api("/api/auth/me", {}, elsewhere)).status, 401);
    const before = await token(page);
    await page.type("input[name=currentPassword]", "correct horse battery");
    await page.type("form[aria-label='Change password'] input[name=password]", "a new password 2");
    await page.type("form[aria-label='Change password'] input[name=again]", "a new password 2");
    await page.click("button::-p-text(Change password)");
    await waitForText(page, ".saved", "other devices are signed out");
    assert.equal((await api("/api/auth/me", {}, before)).status, 401);
    assert.equal((await api("/api/auth/me")).status, 200, "the page holds the new session");
    await check(browser, page, "account-security");

    // A reset from the mailed link: keys go unless the (unticked) box keeps them, and the next
    // screen lists the webhooks and bots that stay.
    await fetch(`${server.url}/api/auth/forgot-password`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: EMAIL }),
    }).then((r) => r.body?.cancel());
    await ctx.deps.background.drain();
    const link = JSON.parse(ctx.logs.findLast((l) => l.includes("reset-password?token="))!).text
      .match(/\/reset-password\?token=[\w-]+/)[0];
    await page.goto(`${server.url}${link}`, { waitUntil: "networkidle0" });
    await heading(page, "Choose a new password");
    assert.equal(
      await page.$eval(
        "input[name=keepApiKeys]",
        (b) => (b as unknown as { checked: boolean }).checked,
      ),
      false,
    );
    await page.type("input[name=password]", "the reset password");
    await page.type("input[name=again]", "the reset password");
    await page.click("button::-p-text(Set password)");
    await heading(page, "Review your account");
    await waitForText(page, "[role=status]", "1 session, 1 API key, 0 linked sign-ins");
    await waitForText(page, ".review code", receiver.url("/hook"));
    await page.waitForSelector(".review strong");
    await check(browser, page, "reset-review");
    assert.equal((await api("/api/orders", {}, key)).status, 401, "the key was revoked");
    await page.click("button::-p-text(Continue)");
    await heading(page, "Orders");
    await page.click("nav a::-p-text(Account)");
    await heading(page, "Account");

    // The export downloads as a file.
    await page.click("button::-p-text(Download export)");
    const file = await waitFor(async () => {
      for await (const e of Deno.readDir(browser.downloads)) {
        if (e.name.endsWith(".json")) return `${browser.downloads}/${e.name}`;
      }
      return null;
    }, "the export file");
    const exported = JSON.parse(await Deno.readTextFile(file));
    assert.equal(exported.account.email, EMAIL);
    assert.equal(exported.orders.length, 4);

    // An email that made no order becomes one when the person asks, after confirming.
    await page.goto(`${server.url}/intake/inbox`, { waitUntil: "networkidle0" });
    await heading(page, "Inbox");
    await paste(page, "textarea[name=raw]", fixture("concepts/abandoned_cart.eml"));
    await page.click("button::-p-text(Import)");
    await page.waitForSelector(".messages li button::-p-text(Make an order from this)");
    await page.click(".messages li button::-p-text(Make an order from this)");
    await page.waitForSelector("dialog[open] button[type=submit]");
    await page.click("dialog[open] button[type=submit]");
    await page.waitForFunction(`location.pathname.startsWith("/orders/")`, { timeout: 10_000 });
    await page.waitForSelector(".history li");
    assert.equal((await api("/api/orders")).body.total, 5);
    await page.goto(`${server.url}/account`, { waitUntil: "networkidle0" });
    await heading(page, "Account");

    // Deletion waits for the typed email, then ends everything.
    const session = await token(page);
    await page.click("button::-p-text(Delete account…)");
    const confirm = "dialog[open] button[type=submit]";
    await page.waitForSelector(confirm);
    assert.equal(
      await page.$eval(confirm, (b) => (b as unknown as { disabled: boolean }).disabled),
      true,
    );
    await page.type("dialog[open] input[name=confirmEmail]", EMAIL.toUpperCase());
    await page.click(confirm);
    await heading(page, "Sign in");
    assert.equal((await api("/api/orders", {}, session)).status, 401);

    assert.deepEqual(browser.errors, []);
  },
});
