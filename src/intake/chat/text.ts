/**
 * Chat text as people read it: the platform's markdown unwrapped (spoilers, links, code,
 * emphasis, quotes, headings, list bullets), custom and Unicode emoji, `:shortcodes:`,
 * mentions and invisible characters removed (research/intake.md §1.2 and §6). Every pattern is
 * linear or bounded by the line; inputs are already cut to the platform's limits.
 */

import { isWebUrl } from "../../domain/orders/web_url.ts";

/** Zero-width, bidi and other invisible characters (bots pad names and values with them). */
const INVISIBLE =
  /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0]/g;
/** Unusual spaces, read as a plain space. */
const SPACES = /[\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\t]/g;

const CODE_BLOCK = /```(?:[a-z0-9_+-]{0,20}\n)?([\s\S]*?)```/gi;
const CODE_SPAN = /(`{1,2})([^`]*?)\1/g;
/** `<:name:id>`, `<a:name:id>`, user/role/channel mentions, `<t:unix:F>` timestamps. */
const TOKENS = /<a?:[\w~]{1,64}:\d{1,25}>|<(?:@[!&]?|#)\d{1,25}>|<t:-?\d{1,20}(?::[a-zA-Z])?>/g;
const ANGLE_URL = /<(https?:\/\/[^\s<>]{1,2048})>/g;
const EVERYONE = /@(?:everyone|here)\b/g;
/** `[text](url)`, `[text](<url>)`, `[text](url "title")`. */
const LINK = /\[([^\[\]\n]{0,1024})\]\(\s*<?[^\s()<>]{0,2048}>?(?:\s+"[^"\n]{0,256}")?\s*\)/g;
const SPOILER = /\|\|([\s\S]*?)\|\|/g;
const EMPHASIS: readonly [RegExp, string][] = [
  [/\*\*([\s\S]+?)\*\*/g, "$1"],
  [/__([\s\S]+?)__/g, "$1"],
  [/~~([\s\S]+?)~~/g, "$1"],
  [/(^|[^\w*\\])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])/g, "$1$2"],
  [/(^|[^\w\\])_(?=\S)([^_\n]+?)(?<=\S)_(?!\w)/g, "$1$2"],
];
/** Markers left unpaired (a cut value): `**`, `__`, `~~`. */
const STRAY_MARKERS = /\*\*|~~|(?<!\w)__|__(?!\w)/g;
const SHORTCODE = /:[a-z0-9_+\-]{0,40}[a-z][a-z0-9_+\-]{0,40}:/g;
/** Emoji and their modifiers; ©, ® and ™ are kept (they are part of product names). */
const EMOJI =
  /(?![\u00A9\u00AE\u2122])[\p{Extended_Pictographic}\p{Emoji_Modifier}\u{1F1E6}-\u{1F1FF}\uFE0E\uFE0F\u20E3\u{E0020}-\u{E007F}]/gu;
const ESCAPE = /\\([*_~`|>#\[\]()\\-])/g;
/** Block quotes, headings, `-#` subtext and list bullets at the start of a line. */
const LINE_MARKERS = /^(?:\s*(?:>>>|>)\s?)*\s*(?:#{1,3}\s+|-#\s+)?(?:[-*+•●▪◦·‣]\s+)?/;

/** Invisible characters dropped, unusual spaces folded to a space. */
export function stripInvisible(s: string): string {
  return s.replace(INVISIBLE, "").replace(SPACES, " ");
}

/**
 * A character any of the patterns above needs: without one (most plain values: a size, a
 * price, a store), the text is already unwrapped.
 */
const MARKUP = /[`<@\[|*_~:\	-￿]/;

/** Markdown and decoration unwrapped; line breaks kept. */
export function unwrap(s: string): string {
  if (!MARKUP.test(s)) return s;
  let out = stripInvisible(s)
    .replace(CODE_BLOCK, "$1")
    .replace(CODE_SPAN, "$2")
    .replace(TOKENS, "")
    .replace(ANGLE_URL, "$1")
    .replace(EVERYONE, "")
    .replace(LINK, "$1")
    .replace(SPOILER, (_, inner: string) => inner.trim());
  // Emphasis nests (`**__x__**`): a few passes unwrap every level a person would write.
  for (let pass = 0; pass < 3; pass++) {
    const before = out;
    for (const [pattern, replacement] of EMPHASIS) out = out.replace(pattern, replacement);
    if (out === before) break;
  }
  return out.replace(STRAY_MARKERS, "").replace(SHORTCODE, "").replace(EMOJI, "")
    .replace(ESCAPE, "$1");
}

/** One line tidied: leading markers dropped, runs of spaces collapsed, trimmed. */
function tidyLine(line: string): string {
  return line.replace(LINE_MARKERS, "").replace(/ {2,}/g, " ").trim();
}

/** The text's non-empty lines, unwrapped and tidied. */
export function cleanLines(s: string | undefined): string[] {
  if (!s) return [];
  return unwrap(s).split(/\r\n|\r|\n/).map(tidyLine).filter((line) => line !== "");
}

/** The text as one line: unwrapped, lines joined by a space. */
export function cleanText(s: string | undefined): string {
  return cleanLines(s).join(" ");
}

/** Values that state there is no value. */
const NO_VALUE = /^(?:n\/?a|none|null|undefined|unknown|nil|tbd|not available|-+|[—–?]+)$/i;

export function isNoValue(s: string): boolean {
  return s === "" || NO_VALUE.test(s);
}

/** The first http(s) URL in raw text (a markdown link's target or a bare URL). */
export function firstUrl(raw: string): string | undefined {
  const match = /https?:\/\/[^\s()<>|\]]{1,2000}/.exec(raw);
  return match ? match[0] : undefined;
}

/** The trimmed text when it is a link an order keeps (`isWebUrl`, the API's rule). */
export function httpUrl(raw: string | undefined): string | undefined {
  const url = raw?.trim();
  return url && isWebUrl(url) ? url : undefined;
}
