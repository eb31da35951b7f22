/** Money, dates, labels, links and markup: the pieces generic extraction is made of. */
import { deepEqual, equal } from "node:assert/strict";
import { findMoney, moneyValue, parseAmount } from "../../../src/intake/money.ts";
import { foldKeepingOffsets, normaliseText } from "../../../src/intake/text.ts";
import { dayString, headerDay, parseDay } from "../../../src/intake/email/dates.ts";
import { labelledValues } from "../../../src/intake/email/labels.ts";
import { textToBlocks } from "../../../src/intake/email/letter.ts";
import { htmlToBlocks } from "../../../src/intake/email/html.ts";
import {
  isOpaqueTracker,
  trackingNumbersInUrl,
  unwrapLink,
} from "../../../src/intake/email/links.ts";
import { readMarkup } from "../../../src/intake/email/markup.ts";

Deno.test("money: the display string as printed, the amount by the last separator with two digits", () => {
  const cases: [string, string, number][] = [
    ["Total $1,134.65", "$1,134.65", 113465],
    ["Gesamtbetrag 1.234,56 €", "1.234,56 €", 123456],
    ["Montant 1\u202F234,56\u00A0€", "1\u202F234,56\u00A0€", 123456],
    ["CHF 1'234.56", "CHF 1'234.56", 123456],
    ["$402.83 USD", "$402.83 USD", 40283],
    ["US $18.42", "US $18.42", 1842],
    ["49,95 EUR", "49,95 EUR", 4995],
    ["1234,56 €", "1234,56 €", 123456],
    ["£170.00", "£170.00", 17000],
    ["¥12,800", "¥12,800", 1280000],
  ];
  for (const [text, display, cents] of cases) {
    const [m] = findMoney(text);
    equal(m?.display, display, text);
    equal(m?.cents, cents, text);
  }
  equal(parseAmount("1,600.00"), 160000);
  equal(parseAmount("179,95"), 17995);
  equal(parseAmount("12.345"), 1234500);
  equal(findMoney("Order 1001, 3 items").length, 0);
  equal(moneyValue("$12.50 via USPS Priority Mail"), null);
  equal(moneyValue("89,95 € (inkl. MwSt.)")?.display, "89,95 €");
});

Deno.test("text: invisible characters go, odd spaces and quotes fold, offsets survive folding", () => {
  equal(normaliseText("A\u00A0B\u202FC\u200B\u034F\u00AD d\u2019e\r\n\r\n x"), "A B C d'e\nx");
  equal(normaliseText("ＡＢＣ１２３"), "ABC123");
  const text = "Order № KITH-104233 Größe";
  const folded = foldKeepingOffsets(text);
  equal(folded.length, text.length);
  equal(folded, "order # kith-104233 grose");
});

Deno.test("dates: full, year-less, weekday-only, numeric, relative; ranges give nothing", () => {
  const anchor = { year: 2026, month: 3, day: 23 }; // a Monday
  const day = (s: string, monthFirst = false) => {
    const d = parseDay(s, { anchor, monthFirst });
    return d ? dayString(d) : null;
  };
  equal(day("Thursday"), "2026-03-26");
  equal(day("Monday"), "2026-03-23");
  equal(day("tomorrow"), "2026-03-24");
  equal(day("Tuesday, March 31"), "2026-03-31");
  equal(day("Donnerstag, 19. März"), "2026-03-19");
  equal(day("vendredi 15 mai 2026"), "2026-05-15");
  equal(day("viernes, 17 de julio de 2026"), "2026-07-17");
  equal(day("16.07.2026"), "2026-07-16");
  equal(day("07/20/2026", true), "2026-07-20");
  equal(day("03/04/2026", true), "2026-03-04");
  equal(day("03/04/2026"), "2026-04-03");
  equal(day("2026-06-25T20:00:00-04:00"), "2026-06-25");
  equal(day("mar. 12 mai 2026 à 18:31"), "2026-05-12");
  equal(day("Sat, Apr 11, 2026 at 11:30 PM"), "2026-04-11");
  equal(day("Mon, Jun 29 - Fri, Jul 10"), null);
  equal(day("Do, 09.04. – Fr, 10.04."), null);
  equal(day("entre le 4 et le 6 juin"), null);
  equal(day("Friday, March 24, 2026"), null, "the weekday contradicts the date");
  equal(day("February 30, 2026"), null);
  // Across New Year: a January day named in December is next year's.
  const december = { year: 2026, month: 12, day: 28 };
  equal(dayString(parseDay("Jan 3", { anchor: december })!), "2027-01-03");
  // The writer's own calendar day, not UTC's.
  deepEqual(headerDay("Mon, 23 Mar 2026 23:30:00 -0700"), { year: 2026, month: 3, day: 23 });
});

Deno.test("labels: same line, next line, column header and sentence, in four languages, with the label as printed", () => {
  const accept = (raw: string) => /^\s*[:#]?\s*([A-Z0-9-]{5,})/.exec(raw)?.[1] ?? null;
  const read = (html: string) =>
    labelledValues(htmlToBlocks(html).blocks, "orderNumber", accept)[0];
  const found = (value: string, block: number, shape: string, label: string) => ({
    value,
    block,
    shape,
    label,
  });
  deepEqual(read("<p>Order number: AB12345</p>"), found("AB12345", 0, "same", "Order number"));
  deepEqual(read("<p>Bestellnummer: 10105</p>"), found("10105", 0, "same", "Bestellnummer"));
  deepEqual(
    read("<p>N° de commande : FR21039</p>"),
    found("FR21039", 0, "same", "N° de commande"),
  );
  deepEqual(read("<p>N.º de pedido: 2026071</p>"), found("2026071", 0, "same", "N.º de pedido"));
  deepEqual(
    read("<div>Order #</div><div>113-4820917-5531468</div>"),
    found("113-4820917-5531468", 1, "next", "Order #"),
  );
  deepEqual(
    read(
      "<table><tr><th>Número de pedido</th><th>Fecha</th></tr><tr><td>56192</td><td>x</td></tr></table>",
    ),
    found("56192", 2, "column", "Número de pedido"),
  );
  deepEqual(
    read("<p>Hi, your order number is UK27418.</p>"),
    found("UK27418", 0, "sentence", "your order number is"),
  );
  const tracking = labelledValues(
    textToBlocks("Sendungsnummer:\n00340434140634944599"),
    "trackingNumber",
    (r) => r.trim(),
  );
  equal(tracking[0].value, "00340434140634944599");
});

Deno.test("links: click trackers unwrap to their target; opaque ones are known", () => {
  equal(
    unwrapLink(
      "https://x.r.us-east-1.awstrack.me/L0/https:%2F%2Fwww.ups.com%2Ftrack%3Ftracknum%3D1Z5R89390357567127/1/0100-abc/xyz=123",
    ),
    "https://www.ups.com/track?tracknum=1Z5R89390357567127",
  );
  equal(
    unwrapLink(
      "https://www.amazon.com/gp/f.html?C=1&U=https%3A%2F%2Fwww.amazon.com%2Fprogress-tracker%2Fpackage%3FitemId%3Dx%26orderId%3D1",
    ),
    "https://www.amazon.com/progress-tracker/package?itemId=x&orderId=1",
  );
  equal(
    unwrapLink(
      "https://nam12.safelinks.protection.outlook.com/?url=https%3A%2F%2Ftools.usps.com%2Fgo%2FTrackConfirmAction%3FtLabels%3D9400111001744001696107&data=05",
    ),
    "https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111001744001696107",
  );
  const p = btoa(
    JSON.stringify({
      p: JSON.stringify({
        u: 1,
        url:
          "https://tools.usps.com/go/TrackConfirmAction_input?qtc_tLabels1=9405511166394046892294",
      }),
    }),
  );
  equal(
    unwrapLink(`https://mandrillapp.com/track/click/1/tools.usps.com?p=${p}`),
    "https://tools.usps.com/go/TrackConfirmAction_input?qtc_tLabels1=9405511166394046892294",
  );
  equal(isOpaqueTracker("https://click.emailinfo2.bestbuy.com/?qs=45c707d0"), true);
  equal(isOpaqueTracker("https://links.stockx.com/ls/click?upn=u001.tDQ"), true);
  equal(isOpaqueTracker("https://www.fedex.com/fedextrack/?trknbr=860241683521"), false);
  equal(
    isOpaqueTracker("https://www.amazon.co.uk/gp/r.html"),
    true,
    "a redirect with no readable target",
  );
  deepEqual(trackingNumbersInUrl("https://www.fedex.com/fedextrack/?trknbr=860241683521"), [{
    trackingNumber: "860241683521",
    carrier: "fedex",
    checked: true,
  }]);
  deepEqual(
    trackingNumbersInUrl("https://mydhl.express.dhl/gb/en/tracking.html#/results?id=7002592391"),
    [{ trackingNumber: "7002592391", carrier: "dhl-express", checked: true }],
  );
  // A store's order page carries an order number, not a tracking number.
  deepEqual(trackingNumbersInUrl("https://www.walmart.com/orders/200014138827566"), []);
});

Deno.test("links: what the URL parser rewrites (escapes, case, backslash, tab, full-width) is still read", () => {
  const target = "https://shop.example/order";
  for (
    const href of [
      "https://click.example/r?%75rl=https%3A%2F%2Fshop.example%2Forder",
      "https://click.example/r?U=https://shop.example/order",
      "https://click.example/r?u=h%74tps://shop.example/order",
      "https://r.awstrack.me\\L0\\https:%2F%2Fshop.example%2Forder/1/x",
      "https://r.awstrack.me/L\t0/https:%2F%2Fshop.example%2Forder/1/x",
      "https://click.example/r?u=ht\ttps://shop.example/order",
    ]
  ) equal(unwrapLink(href), target, href);
  for (
    const href of [
      "https://www.%75ps.com/track?loc=en_US&tracknum=1Z999AA10123456784",
      "https://www.\uFF55\uFF50\uFF53.com/x/1Z999AA10123456784",
      "https://shop.example/status?TrackNum=1Z999AA10123456784",
      "https://shop.example/status?t%72acknum=1Z999AA10123456784",
    ]
  ) {
    deepEqual(trackingNumbersInUrl(href).map((t) => t.trackingNumber), ["1Z999AA10123456784"]);
  }
  const plain = "https://shop.example/products/rec-1?utm_source=email&utm_medium=recs";
  equal(unwrapLink(plain), plain);
  deepEqual(trackingNumbersInUrl(plain), []);
});

Deno.test("markup: JSON-LD Order and ParcelDelivery, microdata, status spellings, broken JSON", () => {
  const order = readMarkup([
    "not json",
    JSON.stringify({
      "@context": "https://schema.org",
      "@graph": [{
        "@type": "Order",
        orderNumber: "W1",
        orderStatus: "orderProcessing",
        merchant: { name: "Apple Store" },
        price: "1244.41",
        acceptedOffer: [{
          itemOffered: { name: "Phone", image: "https://img.example/p.png" },
          price: "1099.00",
          eligibleQuantity: { value: 1 },
        }],
      }],
    }),
  ], []);
  deepEqual(order, {
    orderNumber: "W1",
    merchant: "Apple Store",
    status: "ordered",
    priceCents: 124441,
    items: [{ name: "Phone", image: "https://img.example/p.png", priceCents: 109900, quantity: 1 }],
    deliveries: [],
  });
  const html = `<div itemscope itemtype="http://schema.org/ParcelDelivery">
    <div itemprop="carrier" itemscope itemtype="http://schema.org/Organization"><meta itemprop="name" content="FedEx"></div>
    <span itemprop="trackingNumber">368529858954</span>
    <link itemprop="trackingUrl" href="https://www.fedex.com/fedextrack/?trknbr=368529858954">
    <div itemprop="partOfOrder" itemscope itemtype="http://schema.org/Order"><meta itemprop="orderNumber" content="000012874"><meta itemprop="orderStatus" content="https://schema.org/OrderDelivered"></div>
  </div>`;
  const doc = htmlToBlocks(html);
  const delivery = readMarkup(doc.jsonLd, doc.microdata);
  equal(delivery?.orderNumber, "000012874");
  equal(delivery?.status, "delivered");
  deepEqual(delivery?.deliveries[0], {
    trackingNumber: "368529858954",
    trackingUrl: "https://www.fedex.com/fedextrack/?trknbr=368529858954",
    carrierName: "FedEx",
    items: [],
  });
  equal(readMarkup(["{broken"], []), null);
});

Deno.test("HTML blocks: hidden preheaders, styles and scripts are dropped; cells keep their place", () => {
  const doc = htmlToBlocks(`<html><head><style>.x{color:red}</style></head><body>
    <div style="display:none;max-height:0">Preheader text</div><style>td{}</style>
    <div style="mso-hide:all">Outlook only</div>
    <table><tr><th>Shipped By</th><th>Tracking Number</th></tr><tr><td>UPS</td><td><a href="https://x.example/?a=1&amp;b=2">1Z5R89390357567127</a></td></tr></table>
    <p>Fish &amp; Chips&nbsp;&euro;5</p><script>var a = 1;</script></body></html>`);
  deepEqual(doc.blocks.map((b) => b.text), [
    "Shipped By",
    "Tracking Number",
    "UPS",
    "1Z5R89390357567127",
    "Fish & Chips €5",
  ]);
  deepEqual(doc.blocks[3].cell, { table: 1, row: 1, col: 1 });
  equal(doc.blocks[3].links[0].href, "https://x.example/?a=1&b=2");
});
