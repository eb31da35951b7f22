/**
 * Is a post a checkout? Decided from header text only (a title, an author name, the first line
 * of a description, the first line of `content`), never from field names or values: decline
 * posts reuse the success field set, and product names contain `oos` (Ultraboost) or `error`
 * (Terror). Words match whole; a failure or non-checkout word in a header wins over success.
 */
import type { ChatEmbed } from "./body.ts";
import { cleanLines, cleanText } from "./text.ts";

/** Why a post is not a checkout, with the header words that say so. */
const NOT_CHECKOUT: readonly [string, RegExp][] = [
  [
    "decline",
    /\b(?:declined?|fail(?:ed|ure|s)?|unsuccessful|error|denied|rejected|cancell?ed|blocked|shape ?block(?:ed)?|voided|refunded)\b/,
  ],
  // The same in a few other languages bots are set to (letters, not `\b`, bound the words).
  [
    "decline",
    /(?<!\p{L})(?:fehlgeschlagen|abgelehnt|échec|échoué|refusée?|fallido|rechazad[oa])(?!\p{L})|失败|失敗/u,
  ],
  ["out of stock", /\b(?:out of stock|oos|sold out|unavailable)\b/],
  [
    "monitor",
    /\b(?:monitors?|restock(?:ed|s|ing)?|(?:back )?in stock|available|new (?:product|item|release|drop)s?|price (?:drop|change)|password page)\b/,
  ],
  ["raffle", /\b(?:raffles?|entered|entry|entries|draw)\b/],
  ["queue", /\b(?:queued?|queues|waiting|splash|in line)\b/],
  [
    "task status",
    /\b(?:tasks?|started|starting|stopped|monitoring|carted|added to cart|login successful|logged in|accounts? (?:created|generated)|generated)\b/,
  ],
  ["captcha", /\b(?:captchas?|harvester|solve|solving)\b/],
  ["test", /\b(?:test|testing)\b/],
  [
    "announcement",
    /\b(?:updates?|updated|released?|is live|new version|version|changelog|announcement|maintenance|download)\b/,
  ],
];

/** Success headers; the match covers the whole phrase so what follows can name the store. */
const SUCCESS: readonly RegExp[] = [
  /\b(?:successful(?:ly)?|success)\b(?:\s+(?:checkout|checked out|order|purchase))?(?:\s+(?:placed|complete[d]?))?/,
  /\b(?:checkout|purchase) (?:complete[d]?|confirmed|done)\b/,
  /\bchecked out\b/,
  /\bpurchased\b/,
  /\b(?:copped|secured)\b/,
  /(?<!\p{L})(?:erfolgreich|réussie?|exitos[oa])(?!\p{L})|成功/u,
];

/** A store's own order notifications (or an inbox tool's): `New order #1`, `Order #1 placed`. */
const ORDER_NOTICE: readonly RegExp[] = [
  /\bnew order\b/,
  /\border\b[^|]{0,40}?\bplaced\b/,
  /\border (?:confirmed|confirmation|complete[d]?|submitted|received|paid)\b/,
];

/** Status news in a header: an inbox tool's shipping and delivery notices. */
const SHIPPED = /\b(?:shipped|dispatched|out for delivery|on (?:its|the) way|in transit)\b/;
const DELIVERED = /\bdelivered\b/;

/** The status signals a post's header lines carry. */
export function headerSignals(lines: readonly string[]): { shipped?: true; delivered?: true } {
  const text = lines.join("\n").toLowerCase();
  return {
    ...(SHIPPED.test(text) ? { shipped: true } : {}),
    ...(DELIVERED.test(text) ? { delivered: true } : {}),
  };
}

/** Words that hint at a checkout without saying it succeeded. */
const WEAK = /\b(?:checkout|order|purchase)\b/;

/** `Success: <product>`: the words before the colon are the header, the rest a product. */
const SUCCESS_LABEL =
  /^(success(?:ful(?:ly)?)?(?: checkout)?|checked out|copped)\s*[:\-–—]\s+(.+)$/i;

export type HeaderVerdict =
  | { kind: "success"; notice: boolean; text: string; rest: string }
  | { kind: "not_checkout"; category: string; word: string }
  | { kind: "weak" }
  | { kind: "none" };

/** The verdict of one line of header text (already cleaned). */
export function judgeLine(line: string): HeaderVerdict & { product?: string } {
  const labelled = SUCCESS_LABEL.exec(line);
  if (labelled) {
    return { kind: "success", notice: false, text: line, rest: "", product: labelled[2] };
  }
  const lower = line.toLowerCase();
  for (const [category, pattern] of NOT_CHECKOUT) {
    const found = pattern.exec(lower);
    if (found) return { kind: "not_checkout", category, word: found[0] };
  }
  for (const [notice, patterns] of [[false, SUCCESS], [true, ORDER_NOTICE]] as const) {
    for (const pattern of patterns) {
      const found = pattern.exec(lower);
      if (found) {
        // `rest` is cut from the original line, which has the same length unless case folding
        // changed it (rare letters such as U+0130): then nothing follows.
        const rest = lower.length === line.length ? line.slice(found.index + found[0].length) : "";
        return { kind: "success", notice, text: line, rest };
      }
    }
  }
  return WEAK.test(lower) ? { kind: "weak" } : { kind: "none" };
}

/** A post's or an embed's header: its verdict and what the header itself states. */
export interface Header {
  verdict: HeaderVerdict;
  /** Where the success words are: `title`, `author`, `description` or `content`. */
  where?: HeaderPlace;
  /** A product named in the header (`Success: <product>`). */
  product?: string;
}

export type HeaderPlace = "title" | "author" | "description" | "content";

/** Judges header lines in order: a non-checkout word anywhere wins, then success, then weak. */
export function judgeHeader(lines: readonly [HeaderPlace, string][]): Header {
  let success: Header | undefined;
  let weak = false;
  for (const [where, line] of lines) {
    const verdict = judgeLine(line);
    if (verdict.kind === "not_checkout") return { verdict };
    if (verdict.kind === "success" && !success) {
      const { product, ...rest } = verdict;
      success = { verdict: rest, where, ...(product ? { product } : {}) };
    }
    if (verdict.kind === "weak") weak = true;
  }
  return success ?? { verdict: weak ? { kind: "weak" } : { kind: "none" } };
}

/** The header lines of an embed: title, author name, first line of the description. */
export function embedHeaderLines(embed: ChatEmbed): [HeaderPlace, string][] {
  const lines: [HeaderPlace, string][] = [];
  const title = cleanText(embed.title);
  if (title) lines.push(["title", title]);
  const author = cleanText(embed.author?.name);
  if (author) lines.push(["author", author]);
  const first = cleanLines(embed.description)[0];
  if (first) lines.push(["description", first]);
  return lines;
}

/** The header line of the post's `content`: its first line. */
export function contentHeaderLines(content: string | undefined): [HeaderPlace, string][] {
  const first = cleanLines(content)[0];
  return first ? [["content", first]] : [];
}

const SEPARATED = /^\s*(?:[|•:@~]|[-–—]|on\b|at\b|from\b)\s*(.+?)[\s!.]*$/i;

/** The store a success header names after its phrase: `Successful Checkout | Target`, `... on Nike US`. */
export function storeInHeader(verdict: HeaderVerdict): string | undefined {
  if (verdict.kind !== "success") return undefined;
  const store = SEPARATED.exec(verdict.rest)?.[1]?.trim();
  return store && store.length <= 100 && judgeLine(store).kind === "none" ? store : undefined;
}

/** An order number printed in a header: `New order #58213`, `Order #1187 placed`. */
export function orderNumberInHeader(text: string): string | undefined {
  const found = /\border\s*(?:#|no\.?|number|nr\.?|id)\s*:?\s*#?\s*([a-z0-9][a-z0-9-]{1,40})\b/i
    .exec(text);
  return found && /\d/.test(found[1]) ? found[1] : undefined;
}
