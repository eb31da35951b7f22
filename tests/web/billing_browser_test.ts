/**
 * The plan on the account screen with billing on, in headless Chromium against a real server
 * with a fake payment provider and a fake SMTP server: upgrading is refused until the email is
 * verified (the API's 403 shown by the button), the link mailed by "Send the link" verifies it on
 * the dashboard's `/verify-email` page, then "Upgrade to Pro" opens the provider's checkout page;
 * back on `/billing`, a provider webhook has made the plan pro and "Manage billing" opens the
 * portal. axe on the pages this adds; no page error.
 */
import assert from "node:assert/strict";
import { fakeSmtp } from "../account/fakes.ts";
import { event, fakeStripe, SECRET_KEY, signed, subscription } from "../billing/fake_stripe.ts";
import { axeFindings, browserSkip, launchBrowser, waitFor, waitForText } from "../chromium.ts";
import { testApp } from "../helpers.ts";
import { serve } from "../serve.ts";

const WEBHOOK_SECRET = "whsec_test_secret";
const PROVIDER = /^https:\/\/(checkout|billing)\.example\//;

const text = (page: import("../../scripts/puppeteer.d.ts").Page, selector: string) =>
  page.$eval(selector, (e) => (e as unknown as { innerText: string }).innerText);

Deno.test({
  name: "dashboard billing: verify the email, upgrade through checkout, manage in the portal",
  ignore: browserSkip("billing_browser_test"),
  async fn() {
    await using stripe = fakeStripe();
    await using smtp = await fakeSmtp();
    await using ctx = await testApp({
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_PRICE_ID: "price_pro",
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: stripe.base,
      BILLING_ENABLED: "true",
      SMTP_URL: smtp.url,
      MAIL_FROM: "no-reply@track.example.com",
      BASE_URL: "https://track.example.com",
    });
    await using server = serve(ctx.app);
    await using browser = await launchBrowser();
    const page = await browser.page();
    // The provider's pages are answered here: the test has no network.
    await page.setRequestInterception(true);
    page.on("request", (r) => {
      if (PROVIDER.test(r.url())) {
        r.respond({ status: 200, contentType: "text/html", body: "<title>Provider</title>" });
      } else r.continue();
    });

    await page.goto(`${server.url}/register`, { waitUntil: "networkidle0" });
    await page.type("input[name=email]", "sam@example.com");
    await page.type("input[name=password]", "correct horse battery");
    await page.click("button[type=submit]");
    await page.waitForFunction(`document.querySelector("h1")?.textContent === "Orders"`);
    await smtp.waitFor(1); // registration's own link

    // Upgrading needs a verified email: the API says so next to the button.
    await page.goto(`${server.url}/account`, { waitUntil: "networkidle0" });
    await page.click("button::-p-text(Upgrade to Pro)");
    await page.waitForSelector("#plan ~ .actions [role=alert]");
    assert.match(await text(page, "#plan ~ .actions [role=alert]"), /verif/i);
    assert.deepEqual(await axeFindings(page), []);
    await page.click("button::-p-text(Send the link)");
    await waitForText(page, "[role=status]", "Sent to sam@example.com");
    const mails = await smtp.waitFor(2);
    const raw = mails[1].raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
    const token = raw.match(/\/verify-email\?token=([\w-]+)/)?.[1];
    assert.ok(token, "the mail carries the link");

    // The mailed link, opened signed in: verified, and the token leaves the address bar.
    await page.goto(`${server.url}/verify-email?token=${token}`, { waitUntil: "networkidle0" });
    await waitForText(page, "[role=status]", "Your email is verified");
    assert.equal(new URL(page.url()).search, "");
    assert.deepEqual(await axeFindings(page), []);

    // Checkout opens the provider's page.
    await page.click("a::-p-text(Back to your account)");
    await waitForText(page, "button", "Upgrade to Pro");
    assert.doesNotMatch(await text(page, "main"), /not verified/);
    await page.click("button::-p-text(Upgrade to Pro)");
    await waitFor(() => page.url() === "https://checkout.example/c/cs_2" || null, "checkout");

    // The provider reports the subscription; back on /billing the plan is pro.
    const body = event(
      "evt_1",
      "customer.subscription.created",
      Math.floor(Date.now() / 1000),
      subscription("cus_1", "active", 1_900_000_000),
    );
    const hook = await fetch(`${server.url}/api/billing/webhook`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "stripe-signature": await signed(body, WEBHOOK_SECRET),
      },
      body,
    });
    assert.equal((await hook.json()).outcome, "applied");
    await page.goto(`${server.url}/billing?checkout=success`, { waitUntil: "networkidle0" });
    await waitForText(page, ".notice", "Thank you");
    assert.match(await text(page, ".plan"), /^pro$/i);
    assert.deepEqual(await axeFindings(page), []);
    // The pages this adds pass at 360 px too (the reset link's without a token).
    const narrow = await browser.page({ width: 360, height: 740 });
    for (const path of ["/billing?checkout=canceled", "/verify-email", "/account"]) {
      await narrow.goto(`${server.url}${path}`, { waitUntil: "networkidle0" });
      assert.deepEqual(await axeFindings(narrow), [], `axe on ${path} at 360 px`);
    }
    await narrow.close();
    await page.click("button::-p-text(Manage billing)");
    await waitFor(() => page.url() === "https://billing.example/p/bps_3" || null, "the portal");
    assert.deepEqual(browser.errors, []);
  },
});
