/**
 * The shop of a checkout post when no store label names it, and the bot's own names that must
 * never pass for a shop or a product: the store a success header names, the author of a
 * store's own notifier, or the one plain part of a footer beside the bot's part
 * (`Shopname • Bot v1.9`). Kept apart from `read.ts` because telling the bot from the shop is
 * its own question, asked by the product reading too. Pure.
 */
import type { ChatEmbed } from "../../domain/intake/chat_embed.ts";
import { type Header, type HeaderPlace, judgeLine, storeInHeader } from "./header.ts";
import { cleanText } from "./text.ts";

const key = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
const firstWord = (s: string) => key(s.trim().split(/[\s|•·:—–-]+/u)[0] ?? "");

/** The bot's own name: the start of its username or footer, or their first word (`Burst AIO`). */
export function isBotName(text: string, botNames: readonly string[]): boolean {
  const k = key(text);
  const first = firstWord(text);
  return k !== "" &&
    botNames.some((name) =>
      key(name) !== "" && (key(name).startsWith(k) || (first !== "" && firstWord(name) === first))
    );
}

/**
 * Authors that are not a shop: a tool (`Cook AIO`, `Notifications`), or a person (`@kev`,
 * `kev#0001`, `Checked out by Sam`).
 */
const NOT_A_SHOP =
  /\b(?:aio|bots?|tools?|webhooks?|notifi(?:er|cations?)|monitors?|alerts?|by|from|users?|members?)\b|[@#]/i;

/** A plain name that may be a shop's: letters, short, no version, address, header word or tool. */
const plainName = (p: string) =>
  /\p{L}{2}/u.test(p) && p.length <= 40 && !/\bv?\d+\.\d+|[./@#]\S/i.test(p) &&
  judgeLine(p).kind === "none" && !NOT_A_SHOP.test(p);

/** A checkout's state, never a shop (`Checkout | Pending`). */
const STATE = /^(?:pending|processing|queued|waiting|in (?:review|progress)|on hold)$/i;

/**
 * `Checkout | Shopname`: a header whose first part is the checkout word alone (no word of its
 * outcome) names the shop in the one part after it.
 */
function storeAfterCheckoutWord(line: string, botNames: string[]): string | undefined {
  const parts = line.slice(0, 200).split(/\s+[|•·—–-]\s+|\s*[|•·]\s*|\s*:\s+/, 4).map((p) =>
    p.trim()
  );
  if (parts.length !== 2 || !/^check-?out$/i.test(parts[0]) || STATE.test(parts[1])) {
    return undefined;
  }
  return plainName(parts[1]) && !isBotName(parts[1], botNames) ? parts[1] : undefined;
}

export function storeFromHeaders(
  lines: [HeaderPlace, string][],
  botNames: string[],
): string | undefined {
  for (const [, line] of lines) {
    const store = storeInHeader(judgeLine(line));
    if (store && !isBotName(store, botNames)) return store;
  }
  for (const [, line] of lines) {
    const store = storeAfterCheckoutWord(line, botNames);
    if (store) return store;
  }
  return undefined;
}

/** A footer's parts, split by a bullet or bar (`・`, `｜` too). */
const footerParts = (footer: string | undefined) =>
  (footer ?? "").slice(0, 200).split(/\s+[•·|・｜]\s+/).map((p) => p.trim());

/**
 * The footer's words for the bot: the parts that are the bot (its username's word) when it is
 * split into parts (`Hafenlauf Sport | Kestrel v2`: the shop's part is no bot name, and a product
 * of that brand is still the product), else the whole footer.
 */
export function footerBotNames(footer: string | undefined, username: string | undefined): string[] {
  const parts = footerParts(footer);
  const bot = parts.filter((p) => !!username && isBotName(p, [username]));
  return parts.length > 1 && bot.length > 0 ? bot : [footer ?? ""];
}

/**
 * `Shopname • Bot v1.9`: a footer of parts split by a bullet or bar (`・`, `｜` too), one of them
 * the bot (its username's word), names the shop when exactly one other part is a plain name (not a
 * version, a time or an address).
 */
export function storeFromFooter(footer: string | undefined, username: string | undefined) {
  const parts = footerParts(footer);
  const bot = (p: string) => !!username && isBotName(p, [username]);
  // Only beside a part that is the bot itself: a footer naming no bot part says nothing sure.
  if (parts.length < 2 || parts.length > 4 || !parts.some(bot)) return undefined;
  const shops = parts.filter((p) => plainName(p) && !bot(p));
  return shops.length === 1 ? shops[0] : undefined;
}

/**
 * With no store label, the post's author when it is neither the header nor the bot: a store's
 * own notifier names the shop there (`Bodega`, `Order #1187 placed`), and so do bots that title
 * the post with their own name (`Adept — checkout`, author `Stüssy`).
 */
export function storeFromAuthor(
  cards: readonly ChatEmbed[],
  header: Header,
  botNames: string[],
): string | undefined {
  for (const [n, card] of cards.entries()) {
    const author = cleanText(card.author?.name);
    if (!author || (n === 0 && header.where === "author") || author.length > 200) continue;
    const title = cleanText(card.title);
    const names = title ? [...botNames, title] : botNames;
    const plain = judgeLine(author).kind === "none" && !NOT_A_SHOP.test(author);
    if (plain && !isBotName(author, names)) return author;
  }
  return undefined;
}
