/** Forwarded mail: every client's header block, nested forwards, forwards as attachments. */
import { deepEqual, equal } from "node:assert/strict";
import { parseMailbox, stripForwardPrefix } from "../../../src/intake/email/forward.ts";
import { readEmail } from "../../../src/intake/email/read.ts";
import { bytes, mail, NOW, storeHtml } from "./mail.ts";

const STORE = storeHtml({
  heading: "Your order is on the way",
  orderNumber: "SH-20417",
  item: "Trail Runner 2 - Moss",
  extra: "<p>Arriving Thursday</p><p>UPS tracking number: 1Z5R89390357567127</p>",
});
const USER = "Jane Doe <jane@example.net>";
const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

async function read(raw: string) {
  return await readEmail(bytes(raw), { now: NOW });
}

/** A forward by the user whose body is `header` then the store's mail. */
function forward(header: string, subject = "Fwd: Your order is on the way", asText = false) {
  return asText
    ? mail({
      from: USER,
      subject,
      text:
        `fyi\n\n${header}\n\nYour order is on the way\nOrder number: SH-20417\nTrail Runner 2 - Moss\nQty: 1\nUPS tracking number: 1Z5R89390357567127`,
    })
    : mail({
      from: USER,
      subject,
      html: `<div>fyi</div><div>${escape(header).split("\n").join("<br>")}</div>${STORE}`,
    });
}

const CASES: [string, string][] = [
  [
    "Gmail EN",
    "---------- Forwarded message ---------\nFrom: Shop <orders@shop.example>\nDate: Mon, Jun 1, 2026 at 9:31 AM\nSubject: Your order is on the way\nTo: <jane@example.net>",
  ],
  [
    "Gmail DE",
    "---------- Forwarded message ---------\nVon: Shop <orders@shop.example>\nDate: Mo., 1. Juni 2026 um 09:31 Uhr\nSubject: Your order is on the way\nTo: <jane@example.net>",
  ],
  [
    "Gmail FR",
    "---------- Forwarded message ---------\nDe : Shop <orders@shop.example>\nDate: lun. 1 juin 2026 à 09:31\nSubject: Your order is on the way\nTo: <jane@example.net>",
  ],
  [
    "Outlook desktop",
    "________________________________\nFrom: Shop [mailto:orders@shop.example]\nSent: Monday, June 1, 2026 9:31 AM\nTo: Jane Doe\nSubject: Your order is on the way",
  ],
  [
    "Outlook DE",
    "Von: Shop <orders@shop.example>\nGesendet: Montag, 1. Juni 2026 09:31\nAn: Jane Doe <jane@example.net>\nBetreff: Your order is on the way",
  ],
  [
    "New Outlook",
    "From: Shop <orders@shop.example>\nDate: Monday, June 1, 2026 at 09:31\nTo: jane@example.net <jane@example.net>\nSubject: Your order is on the way",
  ],
  [
    "Apple Mail EN",
    "Begin forwarded message:\n\nFrom: Shop <orders@shop.example>\nSubject: Your order is on the way\nDate: 1 June 2026 at 09:31:21 EEST\nTo: Jane Doe <jane@example.net>",
  ],
  [
    "Apple Mail DE",
    "Anfang der weitergeleiteten Nachricht:\n\nVon: Shop <orders@shop.example>\nBetreff: Your order is on the way\nDatum: 1. Juni 2026 um 09:31:21 MESZ\nAn: Jane Doe <jane@example.net>",
  ],
  [
    "Thunderbird",
    "-------- Forwarded Message --------\nSubject:\tYour order is on the way\nDate:\tMon, 1 Jun 2026 09:31:00 +0200\nFrom:\tShop <orders@shop.example>\nTo:\tjane@example.net",
  ],
  [
    "Yahoo (one line)",
    "----- Forwarded Message -----\nFrom: Shop <orders@shop.example>To: Jane Doe <jane@example.net>Sent: Monday, June 1, 2026, 09:31:50 AM GMT+1Subject: Your order is on the way",
  ],
];

for (const [client, header] of CASES) {
  for (const asText of [false, true]) {
    Deno.test(`${client} forward (${asText ? "text" : "HTML"}): the store is the real sender`, async () => {
      const result = await read(forward(header, undefined, asText));
      equal(result.realSender, "orders@shop.example");
      equal(result.facts.from, "orders@shop.example");
      equal(result.facts.subject, "Your order is on the way");
      equal(result.reading.kind, "order");
      if (result.reading.kind !== "order") return;
      equal(result.reading.fields.orderNumber, "SH-20417");
      equal(result.reading.fields.trackingNumber, "1Z5R89390357567127");
      deepEqual(result.signals, { shipped: true });
    });
  }
}

Deno.test("the forwarded mail's date anchors 'Arriving Thursday', not the forward's", async () => {
  // Forwarded on Monday 8 June; the store wrote on Monday 1 June: Thursday is 4 June.
  const raw = mail({
    from: USER,
    subject: "Fwd: Your order is on the way",
    date: "Mon, 08 Jun 2026 10:00:00 +0000",
    html:
      `<div>---------- Forwarded message ---------<br>From: Shop &lt;orders@shop.example&gt;<br>Date: Mon, Jun 1, 2026 at 9:31 AM<br>Subject: Your order is on the way<br>To: &lt;jane@example.net&gt;</div>${STORE}`,
  });
  const result = await read(raw);
  equal(result.reading.kind === "order" && result.reading.fields.estimatedDelivery, "2026-06-04");
});

Deno.test("nested forwards: the innermost block is the store's", async () => {
  const inner =
    "---------- Forwarded message ---------<br>From: Shop &lt;orders@shop.example&gt;<br>Date: Mon, Jun 1, 2026 at 9:31 AM<br>Subject: Your order is on the way<br>To: &lt;jane@example.net&gt;";
  const outer =
    "---------- Forwarded message ---------<br>From: Jane Doe &lt;jane@example.net&gt;<br>Date: Mon, Jun 1, 2026 at 10:00 AM<br>Subject: Fwd: Your order is on the way<br>To: &lt;jane.orders@example.net&gt;";
  const raw = mail({
    from: "Jane <jane.orders@example.net>",
    subject: "Fwd: Fwd: Your order is on the way",
    html: `<div>${outer}</div><div>${inner}</div>${STORE}`,
  });
  const result = await read(raw);
  equal(result.realSender, "orders@shop.example");
  equal(result.facts.subject, "Your order is on the way");
});

Deno.test("forward as attachment: the attached message is read, with its own headers and markup", async () => {
  const attached = mail({
    from: "Shop <orders@shop.example>",
    subject: "Your order is on the way",
    messageId: "<store-1@shop.example>",
    html:
      `<script type="application/ld+json">{"@context":"http://schema.org","@type":"ParcelDelivery","trackingNumber":"1Z5R89390357567127","partOfOrder":{"@type":"Order","orderNumber":"SH-20417","merchant":{"@type":"Organization","name":"Shop"}}}</script>${STORE}`,
  });
  const raw = [
    `From: ${USER}`,
    "Subject: Fwd: Your order is on the way",
    "Message-ID: <fwd-1@example.net>",
    "MIME-Version: 1.0",
    'Content-Type: multipart/mixed; boundary="m"',
    "",
    "--m",
    "Content-Type: text/plain; charset=utf-8",
    "",
    "Forwarding this.",
    "--m",
    'Content-Type: message/rfc822; name="order.eml"',
    'Content-Disposition: attachment; filename="order.eml"',
    "",
    attached,
    "--m--",
    "",
  ].join("\r\n");
  const result = await read(raw);
  equal(result.realSender, "orders@shop.example");
  equal(result.template, "markup");
  equal(result.identity, "<fwd-1@example.net>");
  equal(result.facts.messageId, "<fwd-1@example.net>");
  equal(result.reading.kind === "order" && result.reading.fields.orderNumber, "SH-20417");
});

Deno.test("an inline message/rfc822 part takes the same path as an attachment", async () => {
  const attached = mail({
    from: "Shop <orders@shop.example>",
    subject: "Your order is on the way",
    html: STORE,
  });
  const raw = [
    `From: ${USER}`,
    "Subject: Fwd",
    "MIME-Version: 1.0",
    'Content-Type: multipart/mixed; boundary="m"',
    "",
    "--m",
    "Content-Type: message/rfc822",
    "Content-Disposition: inline",
    "",
    attached,
    "--m--",
    "",
  ].join("\r\n");
  equal((await read(raw)).realSender, "orders@shop.example");
});

Deno.test("a mail that only quotes 'From:' lines is not a forward", async () => {
  const raw = mail({
    from: "Shop <orders@shop.example>",
    subject: "Your order is on the way",
    html: `<p>From: New York</p>${STORE}`,
  });
  equal((await read(raw)).realSender, "orders@shop.example");
});

Deno.test("mailbox forms of forward headers", () => {
  const shop = { name: "Shop", address: "orders@shop.example" };
  for (
    const form of [
      "Shop <orders@shop.example>",
      "Shop [mailto:Orders@Shop.example]",
      '"Shop" <orders@shop.example>',
    ]
  ) {
    deepEqual(parseMailbox(form), shop, form);
  }
  deepEqual(parseMailbox("orders@shop.example <mailto:orders@shop.example>"), {
    ...shop,
    name: "",
  });
  deepEqual(parseMailbox("*Shop*"), { name: "Shop", address: "" });
  equal(stripForwardPrefix("Fwd: FW: WG: TR: Your order"), "Your order");
  equal(stripForwardPrefix("RV: I: Tu pedido"), "Tu pedido");
});

Deno.test("a short header run inside a client's quote container is a forward header", async () => {
  const raw = mail({
    from: USER,
    subject: "FW: Your order is on the way",
    html:
      `<div id="divRplyFwdMsg"><b>From:</b> Shop &lt;orders@shop.example&gt;<br><b>Sent:</b> Monday, June 1, 2026 9:31 AM</div>${STORE}`,
  });
  equal((await read(raw)).realSender, "orders@shop.example");
  const bare = mail({
    from: USER,
    subject: "FW: Your order is on the way",
    html:
      `<div><b>From:</b> Shop &lt;orders@shop.example&gt;<br><b>Sent:</b> Monday, June 1, 2026 9:31 AM</div>${STORE}`,
  });
  equal((await read(bare)).realSender, "jane@example.net", "two labels alone are not enough");
});

Deno.test("an apostrophe inside a forwarded sender's name is part of the name", async () => {
  deepEqual(parseMailbox("Librairie D'Auvergne <contact@librairie-auvergne.example>"), {
    name: "Librairie D'Auvergne",
    address: "contact@librairie-auvergne.example",
  });
  // Quotes around the name are still dropped, and so is one that stands apart from letters.
  equal(
    parseMailbox("'Librairie D'Auvergne' <contact@librairie-auvergne.example>")?.name,
    "Librairie D'Auvergne",
  );
  equal(parseMailbox("Shop ' <orders@shop.example>")?.name, "Shop");
  const raw = forward(
    "---------- Forwarded message ---------\nDe : Librairie D'Auvergne <contact@librairie-auvergne.example>\nDate: Mon, Jun 1, 2026 at 9:31 AM\nSubject: Your order is on the way",
  );
  const { reading } = await read(raw);
  equal(reading.kind === "order" && reading.fields.store, "Librairie D'Auvergne");
});
