/**
 * A checkout bot's execute-webhook post read into a `Reading` (CONTRACT.md "Bots and chat
 * intake"). Pure: no I/O, no clock. The embed is picked by its header text (title, author
 * name, first description line; the post's `content` counts for every embed), never by its
 * fields: decline posts reuse the success field set. An order needs a success header and a
 * product name; without a success word, only a product with an order number (printed only once
 * an order exists) counts. Anything else is ignored: a wrong order is worse than none.
 */
import type { MessageFacts, Reading } from "../../domain/intake.ts";
import type { MessageFields } from "../../domain/order.ts";
import { compact } from "../../lib/compact.ts";
import { type ChatBody, type ChatEmbed, parseChatBody } from "./body.ts";
import { fieldsFromPairs, isName, itemsFromPairs, type LineItem, readLineItem } from "./fields.ts";
import {
  contentHeaderLines,
  embedHeaderLines,
  type Header,
  type HeaderPlace,
  headerSignals,
  judgeHeader,
  judgeLine,
  orderNumberInHeader,
  storeInHeader,
} from "./header.ts";
import { readFields, readText } from "./pairs.ts";
import { redactEmbed } from "./redact.ts";
import { cleanText, httpUrl } from "./text.ts";

/** What the community feed may show of a chat order: nothing else. */
export interface ChatFeed {
  itemSummary: string;
  store?: string;
  price?: string;
  imageUrl?: string;
}

export interface ChatReading {
  reading: Reading;
  /**
   * The embed that was read (for an ignored post, the one that decided it, else the first),
   * private values removed: for logs and samples.
   */
  embed?: ChatEmbed;
  facts: MessageFacts;
  /** Present for an order only. */
  feed?: ChatFeed;
}

/** Reads an execute-webhook body. Never throws, whatever the body. */
export function readChatPost(body: unknown): ChatReading {
  const post = parseChatBody(body);
  if (!post) {
    return { reading: { kind: "unreadable", why: "the body is not a JSON object" }, facts: {} };
  }
  const from = cleanText(post.username) || cleanText(post.embeds[0]?.author?.name);
  const facts: MessageFacts = from ? { from } : {};
  const result = readPost(post);
  return { ...result, facts };
}

type Outcome = Omit<ChatReading, "facts">;

/** An ignored post keeps the embed that decided it (or its first), for the samples log. */
const ignored = (why: string, embed?: ChatEmbed): Outcome => ({
  reading: { kind: "ignored", why },
  ...(embed ? { embed: redactEmbed(embed) } : {}),
});

function readPost(post: ChatBody): Outcome {
  const contentLines = contentHeaderLines(post.content);
  const embeds = post.embeds.map((embed, index) => {
    const lines = embedHeaderLines(embed);
    return { embed, index, lines, header: judgeHeader([...lines, ...contentLines]) };
  });
  if (contentLines.length === 0 && embeds.every((e) => isEmptyEmbed(e.embed))) {
    return ignored("empty post");
  }
  const contentHeader = judgeHeader(contentLines);
  const first = post.embeds[0];
  if (contentHeader.verdict.kind === "not_checkout") return notCheckout(contentHeader, first);
  const success = embeds.find((e) => e.header.verdict.kind === "success");
  if (success) return readCheckout(post, group(post.embeds, success.index), success.header);
  const refusal = embeds.find((e) => e.header.verdict.kind === "not_checkout");
  if (refusal) return notCheckout(refusal.header, refusal.embed);
  // The content's header counts for every embed, so this is a post with no embed at all.
  if (contentHeader.verdict.kind === "success") return readCheckout(post, [], contentHeader);
  // No success word anywhere: a product with an order number is still an order.
  const cards = embeds.length > 0 ? embeds.map((e) => group(post.embeds, e.index)) : [[]];
  for (const [n, card] of cards.entries()) {
    const read = readCheckout(post, card, embeds[n]?.header ?? contentHeader);
    if (read.reading.kind === "order" && read.reading.fields.orderNumber) return read;
  }
  return ignored("no checkout header", first);
}

function notCheckout(header: Header, embed: ChatEmbed | undefined): Outcome {
  const v = header.verdict;
  return ignored(
    v.kind === "not_checkout" ? `${v.category}: header says "${v.word}"` : "not a checkout",
    embed,
  );
}

function isEmptyEmbed(embed: ChatEmbed): boolean {
  return !embed.title && !embed.description && !embed.author?.name && embed.fields.length === 0 &&
    !embed.thumbnail?.url && !embed.image?.url;
}

/**
 * The embed at `index` and the ones that continue it: the platform shows embeds with the same
 * `url` as one card, and a cart that overflows goes on in embeds with no title of their own.
 */
function group(embeds: readonly ChatEmbed[], index: number): ChatEmbed[] {
  const first = embeds[index];
  const out = [first];
  for (const next of embeds.slice(index + 1)) {
    const sameCard = first.url !== undefined && next.url === first.url;
    if (!sameCard && (next.title || next.author?.name)) break;
    out.push(next);
  }
  return out;
}

function readCheckout(post: ChatBody, cards: ChatEmbed[], header: Header): Outcome {
  const [embed] = cards;
  const description = readText(embed?.description, "description");
  const pairs = [
    ...readFields(cards.flatMap((c) => c.fields)),
    ...description.pairs,
    ...readText(post.content, "content").pairs,
  ];
  const headerLines = [
    ...(embed ? embedHeaderLines(embed) : []),
    ...contentHeaderLines(post.content),
  ];
  const botNames = [post.username ?? "", embed?.footer?.text ?? ""];
  const items = pickItems(
    itemsFromPairs(pairs),
    description.loose,
    embed,
    header,
    headerLines,
    botNames,
  );
  const redacted = embed ? { embed: redactEmbed(embed) } : {};
  if (items.length === 0) {
    return {
      reading: { kind: "unreadable", why: "checkout post without a product name" },
      ...redacted,
    };
  }
  const read = fieldsFromPairs(pairs);
  const one = items.length === 1 ? items[0] : undefined;
  // Labelled figures first: `Total` is the price when no price is labelled, a total beside
  // one; a cart line's own figure only when nothing is labelled. A cart of several products
  // has one meaningful figure, its total (fixture README rule 7).
  const price = one && (read.price ?? read.total ?? one.price);
  const fields: MessageFields & { itemSummary: string } = {
    itemSummary: joinNames(items),
    store: read.store ?? storeFromHeaders(headerLines, botNames) ??
      storeFromAuthor(embed, header, botNames),
    orderNumber: read.orderNumber ?? orderFromHeaders(headerLines),
    price,
    total: read.price !== undefined || items.length > 1 ? read.total : undefined,
    quantity: read.quantity ?? one?.quantity,
    size: read.size ?? one?.size,
    imageUrl: imageOf(cards),
    ...read.tracking,
    estimatedDelivery: read.estimatedDelivery,
  };
  const defined = compact(fields);
  const feed = compact<ChatFeed>({
    itemSummary: defined.itemSummary,
    store: defined.store,
    price: defined.price ?? defined.total,
    imageUrl: defined.imageUrl,
  });
  const signals = headerSignals(headerLines.map(([, line]) => line));
  return { reading: { kind: "order", fields: defined, signals }, ...redacted, feed };
}

/**
 * The products, from the first place that names them: product labels; a description whose
 * first line (after a success header) is the product or a run of cart lines;
 * `Success: <product>` in a header; the title when the success words are elsewhere.
 */
function pickItems(
  labelled: LineItem[],
  loose: { line: string; index: number }[],
  embed: ChatEmbed | undefined,
  header: Header,
  headerLines: [HeaderPlace, string][],
  botNames: string[],
): LineItem[] {
  if (labelled.length > 0) return labelled;
  const start = header.where === "description" ? 1 : 0;
  const firstLoose = loose[0];
  if (firstLoose && firstLoose.index === start && isProductLine(firstLoose.line)) {
    const run: LineItem[] = [];
    for (const [n, { line, index }] of loose.entries()) {
      const item = readLineItem(line, true);
      if (index !== start + n || item.price === undefined || !isName(item.name)) break;
      run.push(item);
    }
    return run.length > 1 ? run : [readLineItem(firstLoose.line, true)];
  }
  const named = header.product ??
    headerLines.map(([, line]) => judgeLine(line).product).find(Boolean);
  if (named && isName(named)) return [readLineItem(named, false)];
  const title = cleanText(embed?.title);
  if (title && header.where !== "title" && isProductLine(title) && !isBotName(title, botNames)) {
    return [readLineItem(title, false)];
  }
  return [];
}

/** A line that names something and says nothing about the post's outcome. */
function isProductLine(line: string): boolean {
  const kind = judgeLine(line).kind;
  return isName(line) && (kind === "none" || kind === "weak");
}

const key = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");

function isBotName(text: string, botNames: readonly string[]): boolean {
  const k = key(text);
  return k !== "" && botNames.some((name) => key(name) !== "" && key(name).startsWith(k));
}

/** Product names joined with `, ` in printed order, within the order schema's 2000. */
function joinNames(items: readonly LineItem[]): string {
  let out = "";
  for (const { name } of items) {
    const next = out ? `${out}, ${name}` : name;
    if (next.length > 2000) break;
    out = next;
  }
  return out;
}

function storeFromHeaders(lines: [HeaderPlace, string][], botNames: string[]): string | undefined {
  for (const [, line] of lines) {
    const store = storeInHeader(judgeLine(line));
    if (store && !isBotName(store, botNames)) return store;
  }
  return undefined;
}

/** A store's own notifier names the shop as the post's author (`Bodega`, `Order #1187 placed`). */
function storeFromAuthor(
  embed: ChatEmbed | undefined,
  header: Header,
  botNames: string[],
): string | undefined {
  const author = cleanText(embed?.author?.name);
  if (header.verdict.kind !== "success" || !header.verdict.notice || header.where === "author") {
    return undefined;
  }
  const plain = author && judgeLine(author).kind === "none" && author.length <= 200;
  return plain && !isBotName(author, botNames) ? author : undefined;
}

function orderFromHeaders(lines: [HeaderPlace, string][]): string | undefined {
  for (const [, line] of lines) {
    if (judgeLine(line).kind !== "success") continue;
    const found = orderNumberInHeader(line);
    if (found) return found;
  }
  return undefined;
}

/** The card's product image: the first embed's thumbnail, else its image; http(s) only. */
function imageOf(cards: readonly ChatEmbed[]): string | undefined {
  for (const card of cards) {
    const url = httpUrl(card.thumbnail?.url) ?? httpUrl(card.image?.url);
    if (url) return url;
  }
  return undefined;
}
