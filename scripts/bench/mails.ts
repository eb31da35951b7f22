/**
 * Store emails for the intake benchmark: a typical HTML order confirmation as stores send them
 * (table layout, inline styles on every cell, several line items, a grid of recommendations,
 * a footer), 30 to 80 KiB,
 * each with its own Message-ID and order number so no two are duplicates.
 */

const STYLE = 'style="font-family:-apple-system,BlinkMacSystemFont,Segoe UI,Roboto,Helvetica,' +
  "Arial,sans-serif;font-size:14px;line-height:20px;color:#333333;padding:8px 12px;" +
  'border-bottom:1px solid #e5e5e5;vertical-align:top"';

function itemRow(i: number): string {
  return `<tr><td ${STYLE}><img src="https://cdn.shop.example/products/item-${i}.jpg" ` +
    `alt="Product ${i}" width="80" height="80" style="display:block;border:0"></td>` +
    `<td ${STYLE}><span style="font-weight:600">Trail Runner ${i} - Size 10 / Black</span>` +
    `<br><span style="color:#777777">SKU TR-${1000 + i}</span></td>` +
    `<td ${STYLE} align="right">Qty 1</td><td ${STYLE} align="right">$${89 + i}.00</td></tr>\n`;
}

/** A "recommended for you" grid: most of a real mail's bulk is styled table markup. */
function recommendations(cells: number): string {
  let out = "";
  for (let i = 0; i < cells; i++) {
    out +=
      `<td ${STYLE} width="33%" align="center"><a href="https://shop.example/products/rec-${i}` +
      `?utm_source=email&amp;utm_medium=recs" style="color:#333333;text-decoration:none">` +
      `<img src="https://cdn.shop.example/recs/${i}.jpg" width="160" alt="" ` +
      `style="display:block;border:0;width:160px;max-width:100%"><span ` +
      `style="display:block;font-size:13px;line-height:18px;padding-top:6px">Recommended ` +
      `style ${i}</span><span style="display:block;color:#777777;font-size:12px">From ` +
      `$${40 + i}.00</span></a></td>${i % 3 === 2 ? "</tr><tr>" : ""}\n`;
  }
  return `<table width="100%" role="presentation"><tr>${out}</tr></table>`;
}

function footer(): string {
  return `<p ${STYLE}>You are receiving this email because you placed an order at Bench Shop. ` +
    `<a href="https://shop.example/account?utm_source=email" style="color:#0066cc">Manage ` +
    `your account</a>, <a href="https://shop.example/help" style="color:#0066cc">visit the ` +
    `help centre</a> or <a href="https://shop.example/unsubscribe" style="color:#0066cc">` +
    `unsubscribe</a>.</p><p ${STYLE}>Bench Shop, 1 Example Street, Springfield.</p>`;
}

/** The `n`th message: about 30 KiB plus up to 50 KiB more, varying with `n`. */
export function benchMail(n: number): string {
  const items = 3 + (n % 5);
  const cells = 28 + (n * 7) % 78;
  const padding = `<div style="display:none;max-height:0;overflow:hidden">${
    "&#847; &zwnj; ".repeat(40)
  }</div>`;
  const html = `<!doctype html><html><head><meta charset="utf-8"><style>` +
    `.x{color:#333}`.repeat(200) + `</style></head><body>${padding}` +
    `<table width="100%" cellpadding="0" cellspacing="0" role="presentation">` +
    `<tr><td ${STYLE}><h1 style="font-size:24px">Thank you for your purchase!</h1>` +
    `<p ${STYLE}>Order #B${100000 + n} confirmed. We'll email you when it ships.</p></td></tr>` +
    `<tr><td><table width="100%">${
      Array.from({ length: items }, (_, i) => itemRow(i)).join("")
    }</table></td></tr>` +
    `<tr><td ${STYLE} align="right">Subtotal $${items * 90}.00<br>Shipping $0.00<br>` +
    `<strong>Total $${items * 90}.00</strong></td></tr>` +
    `<tr><td>${recommendations(cells)}</td></tr><tr><td>${footer()}</td></tr></table>` +
    `</body></html>`;
  return [
    "From: Bench Shop <orders@shop.example>",
    "To: buyer@example.com",
    `Subject: Order #B${100000 + n} confirmed`,
    "Date: Tue, 03 Mar 2026 10:00:00 +0000",
    `Message-ID: <bench-${n}-${crypto.randomUUID()}@shop.example>`,
    "MIME-Version: 1.0",
    "Content-Type: text/html; charset=utf-8",
    "",
    html,
  ].join("\r\n");
}
