/**
 * MIME: raw bytes to the headers and text parts of one message, with `postal-mime` doing the
 * parsing. Attached messages (`message/rfc822`, inline or not) are returned as bytes for the
 * caller to parse again, so a forward-as-attachment and an inline rfc822 part take one path.
 * Every size is bounded: the input, the parts looked at, the text decoded.
 */
import PostalMime, { type Email } from "postal-mime";
import { clip } from "../text.ts";

export const MIME_LIMITS = {
  /** Bigger messages are refused unread (the service takes 2 MiB; headroom for encodings). */
  maxBytes: 4 * 1024 * 1024,
  /** Leaf parts looked at, in document order; the rest are ignored. */
  maxParts: 200,
  /** Characters kept per text part and for all text parts together. */
  maxPartChars: 1024 * 1024,
  maxTotalChars: 2 * 1024 * 1024,
  /** Attached messages kept per message. */
  maxAttached: 5,
  /** MIME nesting that postal-mime accepts before it gives up on the message. */
  maxNestingDepth: 40,
  maxHeadersSize: 256 * 1024,
} as const;

export interface Mailbox {
  name: string;
  address: string;
}

export interface MimeMessage {
  from?: Mailbox;
  subject?: string;
  /** The `Date` header as written. */
  date?: string;
  messageId?: string;
  /** Decoded `text/html` and `text/plain` bodies, in document order. */
  html: string[];
  text: string[];
  /** The bytes of attached messages (`message/rfc822`). */
  attached: Uint8Array[];
  /** The last value of a header (lower-case name), as postal-mime decoded it. */
  header(name: string): string | undefined;
}

export type MimeResult = { ok: true; message: MimeMessage } | { ok: false; why: string };

/** The internal part tree postal-mime keeps after parsing (not in its typings). */
interface MimeNode {
  childNodes: MimeNode[];
  content?: Uint8Array | null;
  contentTransferEncoding?: { encoding?: string };
  contentType: {
    multipart?: string | false;
    parsed?: { value?: string; params?: Record<string, string> };
  };
  contentDisposition?: { parsed?: { value?: string } };
  getTextContent(): string;
}

const WINDOWS_1252 = new TextDecoder("windows-1252");
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });
const UTF8_LABELS = new Set(["", "utf-8", "utf8", "us-ascii", "ascii", "unicode-1-1-utf-8"]);

/** Whether any byte is beyond ASCII (`content` may be any buffer view postal-mime keeps). */
function beyondAscii(content: ArrayBufferLike | ArrayBufferView): boolean {
  const bytes = ArrayBuffer.isView(content)
    ? new Uint8Array(content.buffer, content.byteOffset, content.byteLength)
    : new Uint8Array(content);
  for (const b of bytes) if (b >= 0x80) return true;
  return false;
}

/** One-byte charsets: any byte sequence is valid in them, so they cannot refute UTF-8. */
const ONE_BYTE = /^(?:iso[-_]?8859[-_]?\d+|latin-?\d|l\d|windows-125\d|cp-?125\d|x-cp125\d)$/;

/** Charsets of more than one byte a character, whose bytes a one-byte reading scrambles. */
const MULTI_BYTE =
  /^(?:shift[-_]?jis|sjis|x-sjis|ms_kanji|windows-31j|cp932|euc-jp|euc-kr|gb2312|gbk|gb18030|big5)$/;
/** Each character windows-1252 reads a byte as, back to that byte. */
const BYTE_OF = new Map(
  [...WINDOWS_1252.decode(Uint8Array.from({ length: 256 }, (_, i) => i))].map((c, i) => [c, i]),
);

/**
 * A multi-byte part that reached us as text read byte by byte (an 8-bit Shift_JIS mail posted as
 * the import's JSON `raw`, its bytes taken as windows-1252 characters and stored as UTF-8): the
 * bytes are rebuilt and read in the declared charset. Null when the text is not such a reading.
 */
function unscrambled(text: string, label: string): string | null {
  const bytes = new Uint8Array(text.length);
  let n = 0;
  for (const c of text) {
    const b = BYTE_OF.get(c);
    if (b === undefined) return null;
    bytes[n++] = b;
  }
  try {
    return new TextDecoder(label, { fatal: true }).decode(bytes.subarray(0, n));
  } catch {
    return null;
  }
}

/**
 * A part's text by its declared charset, with the usual mistakes undone:
 * - a part declared UTF-8 (or ASCII) whose bytes are not UTF-8 is read as windows-1252, the usual
 *   truth behind that mistake (research §7.4);
 * - a part declared in a one-byte charset whose bytes are UTF-8 with characters beyond ASCII is
 *   UTF-8: an 8-bit message pasted or posted as text (the import's JSON `raw`) arrives as
 *   characters and is stored as UTF-8, and real one-byte text almost never forms valid UTF-8
 *   sequences (`Ã©` would have to be written on purpose);
 * - a part declared in a multi-byte charset whose bytes are UTF-8 of characters a byte each is
 *   the same 8-bit message posted as text: its bytes are rebuilt (`unscrambled`); one whose bytes
 *   are UTF-8 of wider characters (kana, kanji) was pasted as shown, and is read as UTF-8 (real
 *   Shift_JIS or EUC text is not valid UTF-8 over a whole part).
 */
function partText(node: MimeNode): string {
  let text: string;
  try {
    text = node.getTextContent();
  } catch {
    text = WINDOWS_1252.decode(node.content ?? new Uint8Array());
  }
  const label = (node.contentType.parsed?.params?.charset ?? "").trim().toLowerCase();
  if (text.includes("\uFFFD") && UTF8_LABELS.has(label) && node.content) {
    try {
      STRICT_UTF8.decode(node.content);
    } catch {
      text = WINDOWS_1252.decode(node.content);
    }
  } else if (ONE_BYTE.test(label) && node.content && beyondAscii(node.content)) {
    try {
      text = STRICT_UTF8.decode(node.content);
    } catch {
      // Not UTF-8: the declared charset stands.
    }
  } else if (MULTI_BYTE.test(label) && node.content && beyondAscii(node.content)) {
    try {
      const utf8 = STRICT_UTF8.decode(node.content);
      // Characters pasted as they were shown (`ご注文`) are stored as UTF-8 and stay so.
      text = unscrambled(utf8, label) ?? (/[\u0800-\uFFFF]/.test(utf8) ? utf8 : text);
    } catch {
      // Not UTF-8: the declared charset stands.
    }
  }
  return text;
}

type PostalResult =
  | { ok: true; email: Email; root?: MimeNode }
  | { ok: false; why: string };

async function postal(raw: Uint8Array): Promise<PostalResult> {
  const parser = new PostalMime({
    rfc822Attachments: true,
    attachmentEncoding: "arraybuffer",
    maxNestingDepth: MIME_LIMITS.maxNestingDepth,
    maxHeadersSize: MIME_LIMITS.maxHeadersSize,
    // Every attached message comes back as bytes: one path for inline and attached ones.
    maxRfc822NestingDepth: 0,
  });
  try {
    const email = await parser.parse(raw);
    return { ok: true, email, root: (parser as unknown as { root?: MimeNode }).root };
  } catch (error) {
    return { ok: false, why: `malformed MIME: ${clip(String((error as Error)?.message), 120)}` };
  }
}

/**
 * Parses one message. Never throws: a message postal-mime rejects is `{ok: false}`.
 * A single text part without a transfer encoding (most store mail) is read in two steps:
 * postal-mime reads the header block alone, and the body's bytes are taken as postal-mime would
 * take them, line by line, which it does through a `Blob` of two parts per line (slow in Deno).
 */
export async function parseMime(raw: Uint8Array): Promise<MimeResult> {
  if (raw.byteLength > MIME_LIMITS.maxBytes) return { ok: false, why: "message too large" };
  // Headers naming a multipart or an encoding take the whole-message path at once (a guess to
  // save a parse: either path reads the same).
  const start = bodyStart(raw);
  const body = start >= 0 && !ENCODED_OR_MULTIPART.test(LATIN1.decode(raw.subarray(0, start)))
    ? start
    : -1;
  let parsed = await postal(body < 0 ? raw : raw.subarray(0, body));
  if (parsed.ok && body >= 0) {
    if (parsed.root && plainTextPart(parsed.root)) parsed.root.content = plainBody(raw, body);
    else parsed = await postal(raw);
  }
  if (!parsed.ok) return parsed;
  const { email, root } = parsed;
  const message: MimeMessage = {
    ...(email.from?.address
      ? { from: { name: email.from.name ?? "", address: email.from.address } }
      : {}),
    subject: email.subject,
    date: email.date,
    messageId: email.messageId,
    html: [],
    text: [],
    attached: [],
    header(name: string) {
      const key = name.toLowerCase();
      return email.headers.findLast((h) => h.key === key)?.value;
    },
  };
  if (root) collectParts(root, message);
  return { ok: true, message };
}

const ENCODED_OR_MULTIPART = /multipart|base64|quoted-printable/i;
const LATIN1 = new TextDecoder("latin1");
const LF = 0x0a;
const CR = 0x0d;

/**
 * Where the body starts: after the first line that is empty once its trailing CRs are cut
 * (postal-mime's end of the top-level headers); -1 when there is none.
 */
function bodyStart(raw: Uint8Array): number {
  let start = 0;
  while (start < raw.length) {
    const lf = raw.indexOf(LF, start);
    const end = lf < 0 ? raw.length : lf;
    let last = end;
    while (last > start && raw[last - 1] === CR) last--;
    if (last === start) return lf < 0 ? raw.length : lf + 1;
    start = end + 1;
  }
  return -1;
}

/** A top-level text part whose body postal-mime passes through undecoded (7bit, 8bit, binary). */
function plainTextPart(root: MimeNode): boolean {
  const type = root.contentType.parsed?.value?.toLowerCase();
  const encoding = root.contentTransferEncoding?.encoding ?? "";
  return !root.contentType.multipart && (type === "text/html" || type === "text/plain") &&
    !/base64/i.test(encoding) && !/quoted-printable/i.test(encoding);
}

/** The body as postal-mime's pass-through decoder keeps it: each line without trailing CRs, then LF. */
function plainBody(raw: Uint8Array, from: number): Uint8Array {
  const out = new Uint8Array(raw.length - from + 1);
  let size = 0;
  let start = from;
  while (start < raw.length) {
    const lf = raw.indexOf(LF, start);
    const end = lf < 0 ? raw.length : lf;
    let last = end;
    while (last > start && raw[last - 1] === CR) last--;
    out.set(raw.subarray(start, last), size);
    size += last - start;
    out[size++] = LF;
    start = end + 1;
  }
  return out.slice(0, size);
}

/** Walks the part tree depth-first without recursion, within the part and size bounds. */
function collectParts(root: MimeNode, message: MimeMessage): void {
  const stack: MimeNode[] = [root];
  let leaves = 0;
  let chars = 0;
  while (stack.length > 0 && leaves < MIME_LIMITS.maxParts) {
    const node = stack.pop()!;
    if (node.contentType.multipart) {
      const children = node.childNodes.slice(0, MIME_LIMITS.maxParts);
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
      continue;
    }
    leaves++;
    const type = (node.contentType.parsed?.value ?? "text/plain").toLowerCase();
    const disposition = node.contentDisposition?.parsed?.value?.toLowerCase();
    if (type === "message/rfc822" || type === "message/global") {
      if (node.content && message.attached.length < MIME_LIMITS.maxAttached) {
        message.attached.push(node.content);
      }
      continue;
    }
    if (disposition === "attachment" || (type !== "text/html" && type !== "text/plain")) continue;
    if (chars >= MIME_LIMITS.maxTotalChars) continue;
    const text = clip(
      partText(node),
      Math.min(MIME_LIMITS.maxPartChars, MIME_LIMITS.maxTotalChars - chars),
    );
    chars += text.length;
    (type === "text/html" ? message.html : message.text).push(text);
  }
}
