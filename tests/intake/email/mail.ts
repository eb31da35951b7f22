/** Builds RFC 5322 messages for the email intake tests. */
import type { Block } from "../../../src/intake/email/html.ts";

export const NOW = Date.parse("2026-06-01T12:00:00Z");

export const bytes = (s: string) => new TextEncoder().encode(s);

export interface MailParts {
  from?: string;
  subject?: string;
  date?: string;
  messageId?: string;
  html?: string;
  text?: string;
  headers?: string[];
}

/** One message: HTML and/or text (multipart/alternative when both), CRLF line ends. */
export function mail(p: MailParts): string {
  const head = [
    ...(p.from ? [`From: ${p.from}`] : []),
    `Subject: ${p.subject ?? "Test"}`,
    `Date: ${p.date ?? "Mon, 01 Jun 2026 10:00:00 +0000"}`,
    ...(p.messageId ? [`Message-ID: ${p.messageId}`] : []),
    "MIME-Version: 1.0",
    ...(p.headers ?? []),
  ];
  if (p.html !== undefined && p.text !== undefined) {
    return [
      ...head,
      'Content-Type: multipart/alternative; boundary="b1"',
      "",
      "--b1",
      "Content-Type: text/plain; charset=utf-8",
      "",
      p.text,
      "--b1",
      "Content-Type: text/html; charset=utf-8",
      "",
      p.html,
      "--b1--",
      "",
    ].join("\r\n");
  }
  const html = p.html !== undefined;
  return [
    ...head,
    `Content-Type: text/${html ? "html" : "plain"}; charset=utf-8`,
    "",
    html ? p.html : p.text ?? "",
    "",
  ].join("\r\n");
}

/** A store order confirmation body (HTML) with the given order number and item. */
export function storeHtml(
  opts: {
    heading?: string;
    orderNumber?: string;
    item?: string;
    price?: string;
    total?: string;
    extra?: string;
  } = {},
): string {
  return `<html><body><table>
<tr><td><h1>${opts.heading ?? "Thanks for your order!"}</h1></td></tr>
${opts.orderNumber ? `<tr><td>Order number: ${opts.orderNumber}</td></tr>` : ""}
${
    opts.item
      ? `<tr><td><img src="https://cdn.example-shop.com/p/item-1.jpg" width="80" alt=""></td><td>${opts.item}</td><td>${
        opts.price ?? "$50.00"
      }</td></tr>`
      : ""
  }
${opts.total ? `<tr><td>Total</td><td>${opts.total}</td></tr>` : ""}
</table>${opts.extra ?? ""}</body></html>`;
}

/** A paragraph block of the HTML reader, with no links or images unless given. */
export function textBlock(text: string, extra: Partial<Block> = {}): Block {
  return { text, tag: "p", heading: false, links: [], images: [], quote: 0, ...extra };
}
