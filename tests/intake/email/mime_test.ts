/**
 * parseMime reads a single undecoded text part without handing its body to postal-mime; what it
 * reads must be what postal-mime reads from the whole message: line ends, CR runs, a missing
 * last newline, empty bodies, charsets and flowed text, next to the encodings that take
 * postal-mime's own path.
 */
import { deepEqual, equal } from "node:assert/strict";
import PostalMime from "postal-mime";
import { parseMime } from "../../../src/intake/email/mime.ts";

const HEADS = [
  "Content-Type: text/html; charset=utf-8",
  "Content-Type: text/plain",
  'Content-Type: TEXT/HTML; charset="ISO-8859-1"',
  "Content-Type: text/plain; format=flowed; delsp=yes",
  "Content-type: text/html;\r\n charset=utf-8",
  "",
];
const ENCODINGS = ["", "8bit", "7bit", "binary", "x-unknown", "base64", "quoted-printable"];
const BODIES = [
  "<p>Hello</p>\r\n<p>caf\u00e9 \u20ac</p>\r\n",
  "no final newline",
  "a\r\r\nb\r\r\r\n\r\n\r\nc\rd\r",
  "",
  "\r\n\r\n",
  "flowed \r\nline\r\n> quoted \r\n",
  "SGVsbG8gd29ybGQ=\r\n",
  "a=3D=\r\nb=C3=A9\r\n",
];

/** Each character windows-1252 decodes to, with its byte. */
const WINDOWS_1252_BYTE = new Map(
  Array.from(
    { length: 256 },
    (_, b) => [new TextDecoder("windows-1252").decode(Uint8Array.of(b)), b],
  ),
);

async function reference(raw: Uint8Array) {
  const email = await new PostalMime({ rfc822Attachments: true, attachmentEncoding: "arraybuffer" })
    .parse(raw);
  return {
    from: email.from?.address,
    subject: email.subject,
    date: email.date,
    messageId: email.messageId,
    text: [email.html ?? email.text ?? ""],
  };
}

Deno.test("a single text part reads as postal-mime reads the whole message", async () => {
  const encoder = new TextEncoder();
  let cases = 0;
  for (const head of HEADS) {
    for (const encoding of ENCODINGS) {
      for (const body of BODIES) {
        for (const eol of ["\r\n", "\n"]) {
          const headers = [
            "From: Shop <orders@shop.example>",
            "Subject: =?utf-8?q?Caf=C3=A9?=",
            "Date: Mon, 01 Jun 2026 10:00:00 +0000",
            "Message-ID: <m1@shop.example>",
            head,
            encoding ? `Content-Transfer-Encoding: ${encoding}` : "",
          ].filter(Boolean);
          const text = headers.join(eol) + eol + eol + body.replaceAll("\r\n", eol);
          const raw = encoder.encode(text);
          const parsed = await parseMime(raw);
          if (!parsed.ok) throw new Error(parsed.why);
          const { from, subject, date, messageId, html, text: plain } = parsed.message;
          const expected = await reference(raw);
          // Bytes that are not UTF-8 in a part declared UTF-8 are read as windows-1252 by
          // parseMime (hostile_test.ts), not as postal-mime reads them.
          if (expected.text[0].includes("\uFFFD")) expected.text = [...html, ...plain];
          // UTF-8 bytes in a part declared ISO-8859-1 are read as UTF-8 (the test below), where
          // postal-mime keeps the declared charset (read as windows-1252): its reading gives the bytes.
          if (
            /ISO-8859-1/i.test(head) && [...expected.text[0]].some((c) => c.charCodeAt(0) > 0x7f)
          ) {
            const bytes = Uint8Array.from(expected.text[0], (c) => WINDOWS_1252_BYTE.get(c) ?? 0);
            try {
              expected.text = [new TextDecoder("utf-8", { fatal: true }).decode(bytes)];
            } catch {
              // Not UTF-8: the declared charset stands.
            }
          }
          deepEqual(
            { from: from?.address, subject, date, messageId, text: [...html, ...plain] },
            expected,
            JSON.stringify(text),
          );
          cases++;
        }
      }
    }
  }
  equal(cases, HEADS.length * ENCODINGS.length * BODIES.length * 2);
});

Deno.test("a message without a blank line, or with headers only, reads the same both ways", async () => {
  const encoder = new TextEncoder();
  for (const text of ["Subject: x", "Subject: x\r\n", "Subject: x\r\n\r\n", "Subject: x\r\n\r"]) {
    const parsed = await parseMime(encoder.encode(text));
    if (!parsed.ok) throw new Error(parsed.why);
    const expected = await reference(encoder.encode(text));
    deepEqual([...parsed.message.html, ...parsed.message.text], expected.text, text);
    equal(parsed.message.subject, "x");
  }
});

Deno.test("a part declared in a one-byte charset reads as UTF-8 only when its bytes are UTF-8", async () => {
  const message = (charset: string, body: Uint8Array, encoding = "8bit") =>
    new Uint8Array([
      ...new TextEncoder().encode(
        [
          "From: Boutique <commandes@boutique.example>",
          "Subject: Commande 4471",
          `Content-Type: text/plain; charset=${charset}`,
          `Content-Transfer-Encoding: ${encoding}`,
          "",
          "",
        ].join("\r\n"),
      ),
      ...body,
    ]);
  const textOf = async (raw: Uint8Array) => {
    const parsed = await parseMime(raw);
    if (!parsed.ok) throw new Error(parsed.why);
    return parsed.message.text[0].trim();
  };
  // Pasted or posted as JSON text, a windows-1252 message arrives as characters stored in UTF-8.
  const utf8 = new TextEncoder().encode("Veste élégante – 89,00 €");
  equal(await textOf(message("windows-1252", utf8)), "Veste élégante – 89,00 €");
  equal(await textOf(message("ISO-8859-15", utf8)), "Veste élégante – 89,00 €");
  // Real one-byte text stays as declared (0xE9 alone is no UTF-8).
  const latin1 = new Uint8Array([0x56, 0x65, 0x73, 0x74, 0x65, 0x20, 0xE9, 0x74, 0xE9, 0x20, 0x80]);
  equal(await textOf(message("windows-1252", latin1)), "Veste été €");
  // Quoted-printable one-byte text too.
  equal(
    await textOf(message("iso-8859-1", new TextEncoder().encode("=E9t=E9"), "quoted-printable")),
    "été",
  );
  // A declared multi-byte charset is never second-guessed.
  equal(
    await textOf(message("shift_jis", new Uint8Array([0x82, 0xa0]))),
    new TextDecoder("shift_jis").decode(new Uint8Array([0x82, 0xa0])),
  );
});

Deno.test("a multi-byte part posted as text read byte by byte is rebuilt in its charset", async () => {
  const message = (body: Uint8Array) =>
    new Uint8Array([
      ...new TextEncoder().encode(
        "From: Shop <shop@kobo.example>\r\nSubject: x\r\n" +
          "Content-Type: text/plain; charset=Shift_JIS\r\nContent-Transfer-Encoding: 8bit\r\n\r\n",
      ),
      ...body,
    ]);
  const textOf = async (raw: Uint8Array) => {
    const parsed = await parseMime(raw);
    if (!parsed.ok) throw new Error(parsed.why);
    return parsed.message.text[0].trim();
  };
  // ご注文 A-1 in Shift_JIS (0x8D is one of the bytes windows-1252 leaves as a control).
  const sjis = new Uint8Array([0x82, 0xb2, 0x92, 0x8d, 0x95, 0xb6, 0x20, 0x41, 0x2d, 0x31]);
  equal(await textOf(message(sjis)), "ご注文 A-1");
  // The import's JSON `raw`: the bytes taken as windows-1252 characters, stored as UTF-8.
  const posted = new TextEncoder().encode(new TextDecoder("windows-1252").decode(sjis));
  equal(await textOf(message(posted)), "ご注文 A-1");
  // Japanese pasted as shown (characters stored as UTF-8) under a Shift_JIS label reads as UTF-8.
  const utf8 = new TextEncoder().encode("ご注文ありがとうございます");
  equal(await textOf(message(utf8)), "ご注文ありがとうございます");
});
