/**
 * The embed copier's user script in a real browser: headless Chromium opens a page laid out
 * like the chat platform's web client (messages as `li#chat-messages-<channel>-<id>`, embeds as
 * `article` elements with CSS-module class names), the script is loaded from the service as a
 * user-script manager would inject it, and the service receives the embeds as orders.
 */
import { deepStrictEqual as eq } from "node:assert/strict";
import { browserSkip, launchBrowser, waitFor } from "../chromium.ts";
import { call, signUp, testApp } from "../helpers.ts";
import { serve } from "../serve.ts";

const CHANNEL = "2002";

/** One message with one embed, as the client renders it (class names hashed like its own). */
function message(id: string, title: string, fields: [string, string][], image?: string) {
  const rows = fields.map(([name, value]) =>
    `<div class="embedField__623de"><div class="embedFieldName__623de">${name}</div>` +
    `<div class="embedFieldValue__623de">${value}</div></div>`
  ).join("");
  return `<li id="chat-messages-${CHANNEL}-${id}" class="messageListItem__5126c">
    <div class="contents_c19a55"><span class="username_c19a55">Cook Bot</span></div>
    <div id="message-accessories-${id}"><article class="embedWrapper__623de embedFull__623de">
      <div class="embedAuthor__623de"><span class="embedAuthorName__623de">Cook Bot</span></div>
      <div class="embedTitle__623de"><a href="https://shop.example/o/${id}">${title}</a></div>
      <div class="embedFields__623de">${rows}</div>
      ${image ? `<div class="embedThumbnail__623de"><img src="${image}" alt=""></div>` : ""}
      <div class="embedFooter__623de"><span class="embedFooterText__623de">Bot v2</span></div>
    </article></div></li>`;
}

Deno.test({
  name:
    "user script: copies embeds from the chat web client's page to the submission URL, once each",
  ignore: browserSkip("userscript_browser_test"),
  async fn() {
    await using ctx = await testApp();
    await using service = serve(ctx.app);
    const { token } = await signUp(ctx);
    const rotated = await call(ctx, "POST", "/api/embed-copier/rotate", { token });
    const submitUrl = service.url + new URL(String(rotated.body.submitUrl)).pathname;

    const image = "PAGE/img/shoe.png";
    const first = message("1001", "Successful Checkout!", [
      ["Product", "Dunk Low Retro"],
      ["Store", "Nike US"],
      ["Price", "$115.00"],
      ["Order", "W-1001"],
      ["Email", "sam.buyer@example.com"],
    ], image);
    const chatter = `<li id="chat-messages-${CHANNEL}-1002"><div>gm</div></li>`;
    await using page = serve({
      fetch: (req) => {
        const path = new URL(req.url).pathname;
        if (path === "/img/shoe.png") {
          return new Response(new Uint8Array(8), { headers: { "content-type": "image/png" } });
        }
        const html = `<!doctype html><html><body><ol>${first}${chatter}</ol></body></html>`;
        return new Response(html.replaceAll("PAGE", `http://${req.headers.get("host")}`), {
          headers: { "content-type": "text/html" },
        });
      },
    });
    const script = await (await ctx.app.request("/api/embed-copier/userscript.js")).text();

    await using browser = await launchBrowser();
    const tab = await browser.page();
    await tab.goto(`${page.url}/channels/1001/${CHANNEL}`, { waitUntil: "load" });
    // What the script's menu commands would have saved: the URL, this channel switched on.
    await tab.evaluate(
      `localStorage.setItem("orderTrackerCopier.submitUrl", ${
        JSON.stringify(JSON.stringify(submitUrl))
      }); localStorage.setItem("orderTrackerCopier.channels", '["${CHANNEL}"]')`,
    );
    // As a user-script manager injects it; an exception thrown here fails the test.
    await tab.evaluate(script);

    const orders = () =>
      call<{ items: Record<string, unknown>[] }>(ctx, "GET", "/api/orders", { token });
    const [order] = await waitFor(
      async () => {
        const { body } = await orders();
        return body.items.length ? body.items : null;
      },
      "the first order",
      15_000,
    );
    eq(
      [
        order.itemSummary,
        order.store,
        order.price,
        order.orderNumber,
        order.imageUrl,
        order.source,
      ],
      ["Dunk Low Retro", "Nike US", "$115.00", "W-1001", `${page.url}/img/shoe.png`, "chat"],
    );

    // A new message arrives (the client appends it): copied too; a decline is ignored.
    await tab.evaluate(
      `document.querySelector("ol").insertAdjacentHTML("beforeend", ${
        JSON.stringify(
          message("1003", "Payment Declined", [["Product", "Air Max 1"], ["Order", "W-1003"]]) +
            message("1004", "Checkout Successful", [["Item", "Desk Lamp"], [
              "Order #",
              "W-1004",
            ]]),
        )
      })`,
    );
    await waitFor(
      async () => (await orders()).body.items.length === 2 || null,
      "the second order",
    );
    const samples = await waitFor(async () => {
      const res = await call<{ items: { why: string }[] }>(ctx, "GET", "/api/embed-samples", {
        token,
      });
      return res.body.items.length ? res.body.items : null;
    }, "the ignored post's sample");
    eq(samples.map((s) => s.why), ['decline: header says "declined"']);

    // The page is opened again: the script sends what it sees, the service takes each message once.
    await tab.goto(`${page.url}/channels/1001/${CHANNEL}`, { waitUntil: "load" });
    await tab.evaluate(`localStorage.removeItem("orderTrackerCopier.sent")`);
    await tab.evaluate(script);
    await new Promise((r) => setTimeout(r, 1500));
    eq((await orders()).body.items.map((o) => o.orderNumber).sort(), ["W-1001", "W-1004"]);
  },
});
