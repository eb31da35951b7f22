/** Fixtures as import bodies. */
const FIXTURES = new URL("../fixtures/email/", import.meta.url);

/** The raw text of a fixture message (its bytes, read as the import's `raw` string). */
export function fixture(path: string): string {
  return new TextDecoder().decode(Deno.readFileSync(new URL(path, FIXTURES)));
}

/** A small plain-text message from `from`, with a Message-ID unless `messageId` is null. */
export function message(options: {
  from?: string;
  subject?: string;
  body: string;
  messageId?: string | null;
}): string {
  const headers = [
    ...(options.from ? [`From: ${options.from}`] : []),
    "To: buyer@example.com",
    `Subject: ${options.subject ?? "Your order"}`,
    "Date: Tue, 03 Mar 2026 10:00:00 +0000",
    ...(options.messageId === null
      ? []
      : [`Message-ID: ${options.messageId ?? `<${crypto.randomUUID()}@shop.example>`}`]),
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
  ];
  return `${headers.join("\r\n")}\r\n\r\n${options.body}\r\n`;
}

/** A plain order confirmation for order number `n` (from the shop), its Message-ID by number. */
export function orderMail(n: number, from = "Shop <orders@shop.example>"): string {
  return message({
    from,
    subject: `Order #${n} confirmed`,
    body: `Thanks for your order!\nOrder number: ${n}\nItem: Canvas tote\nTotal: $40.00`,
    messageId: `<order-${n}@shop.example>`,
  });
}
