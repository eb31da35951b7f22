/**
 * A checkout bot's execute-webhook post read into a `Reading` (CONTRACT.md "Bots and chat
 * intake"). Pure: no I/O, no clock. The embed is picked by its header text (title, author
 * name, first description line; the post's `content` counts for every embed), never by its
 * fields: decline posts reuse the success field set. An order needs a success header and a
 * product name or an order number (a post naming only a SKU leaves the item blank); without a
 * success word, only a product with an order number (printed only once an order exists)
 * counts. Anything else is ignored: a wrong order is worse than none. Labels and header words
 * are read in English, German, French, Spanish, Dutch, Italian and Japanese; bot names never
 * decide anything.
 */
import type { MessageFacts, Reading } from "../../domain/intake/reading.ts";
import type { MessageFields } from "../../domain/orders/order.ts";
import { compact } from "../../lib/compact.ts";
import type { ChatEmbed } from "../../domain/intake/chat_embed.ts";
import { type ChatBody, parseChatBody } from "./body.ts";
import { fieldsFromPairs, itemsFromPairs } from "./fields.ts";
import {
  contentHeaderLines,
  embedHeaderLines,
  footerHeaderLines,
  type Header,
  type HeaderPlace,
  headerSignals,
  judgeHeader,
  judgeLine,
  namesCheckout,
  orderNumberInHeader,
} from "./header.ts";
import { isLabelLine, productHeadings, readFields, readText } from "./pairs.ts";
import { homeLinks, joinNames, type LooseText, pickItems } from "./products.ts";
import { redactEmbed } from "./redact.ts";
import {
  footerBotNames,
  isBotName,
  storeFromAuthor,
  storeFromFooter,
  storeFromHeaders,
} from "./shop_name.ts";
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
  if (success) {
    return readCheckout(post, group(post.embeds, success.index, true), success.header);
  }
  const refusal = embeds.find((e) => e.header.verdict.kind === "not_checkout");
  if (refusal) return notCheckout(refusal.header, refusal.embed);
  // The content's header counts for every embed, so this is a post with no embed at all.
  if (contentHeader.verdict.kind === "success") return readCheckout(post, [], contentHeader);
  // No success word anywhere: a product with an order number is still an order. A post of
  // plain content must open with a heading of its own (`ScottBot checkout`): a person's
  // `Order: 4471` line in the channel is chatter.
  const firstLine = contentLines[0]?.[1] ?? "";
  if (embeds.length === 0 && (contentHeader.verdict.kind !== "weak" || isLabelLine(firstLine))) {
    return ignored("no checkout header");
  }
  // A footer part that alone says success (`Bot • Checked out`) stands for the header when no
  // header says anything, on the same terms as a product: an order number must be read. A footer
  // with a non-checkout word (`Bot • Failure`) leaves the post to the rule below.
  const footers = embeds.map((e) => judgeHeader(footerHeaderLines(e.embed)));
  const byFooter = footers.findIndex((h) => h.verdict.kind === "success" && !h.product);
  if (byFooter >= 0 && !footers.some((h) => h.verdict.kind === "not_checkout")) {
    const read = readCheckout(post, group(post.embeds, byFooter, true), footers[byFooter]);
    if (read.reading.kind === "order" && read.reading.fields.orderNumber) return read;
  }
  // With no word of the outcome anywhere (a footer's failure is one), a card's plain title may
  // name its product when its fields give an order number and a figure.
  const silent = !footers.some((h) => h.verdict.kind === "not_checkout");
  const cards = embeds.length > 0 ? embeds.map((e) => group(post.embeds, e.index)) : [[]];
  for (const [n, card] of cards.entries()) {
    const read = readCheckout(post, card, embeds[n]?.header ?? contentHeader, silent);
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
 * `url` as one card, a cart that overflows goes on in embeds with no title of their own, and
 * bots split one checkout over embeds titled by part (`Order details`, `Payment`), before or
 * after the one that says success (`backward`). An embed whose header says something of its
 * own (another checkout, a decline, a task summary) starts another post. The embed at `index`
 * comes first (its description and header are the post's), the ones before it last.
 */
function group(embeds: readonly ChatEmbed[], index: number, backward = false): ChatEmbed[] {
  const first = embeds[index];
  const ownSay = (e: ChatEmbed) => {
    const own = judgeHeader(embedHeaderLines(e)).verdict.kind;
    return own === "success" || own === "not_checkout";
  };
  const out = [first];
  for (const next of embeds.slice(index + 1)) {
    const sameCard = first.url !== undefined && next.url === first.url;
    if (!sameCard && ownSay(next)) break;
    out.push(next);
  }
  const before: ChatEmbed[] = [];
  for (let i = index - 1; backward && i >= 0 && !ownSay(embeds[i]); i--) before.unshift(embeds[i]);
  return [...out, ...before];
}

function readCheckout(
  post: ChatBody,
  cards: ChatEmbed[],
  header: Header,
  silent = false,
): Outcome {
  const [embed] = cards;
  const description = readText(embed?.description, "description");
  const content = readText(post.content, "content");
  const pairs = [
    ...readFields(cards.flatMap((c) => c.fields)),
    ...description.pairs,
    ...content.pairs,
  ];
  // The text whose loose lines may name the product: the description, else (after a success
  // header only: chatter is plain content too) the content.
  const homes = homeLinks(embed?.description);
  const text: LooseText = embed?.description
    ? { loose: description.loose, where: "description", homes }
    : {
      loose: header.verdict.kind === "success" ? content.loose : [],
      where: "content",
      homes: [],
    };
  const headings = productHeadings(cards.flatMap((c) => c.fields));
  const headerLines = [
    ...(embed ? embedHeaderLines(embed) : []),
    ...contentHeaderLines(post.content),
  ];
  const botNames = [post.username ?? "", ...footerBotNames(embed?.footer?.text, post.username)];
  const read = fieldsFromPairs(pairs);
  const items = pickItems(
    itemsFromPairs(pairs),
    text,
    headings,
    cards,
    header,
    headerLines,
    botNames,
    silent && figured(embed),
  );
  const redacted = embed ? { embed: redactEmbed(embed) } : {};
  // A status field that says the checkout failed outweighs any header (`Status: Declined`).
  const refusal = pairs.filter((p) => p.kind === "status")
    .map((p) => judgeLine(p.lines.join(" "))).find((v) => v.kind === "not_checkout");
  if (refusal?.kind === "not_checkout") {
    return ignored(`${refusal.category}: status says "${refusal.word}"`, embed);
  }
  const orderNumber = read.orderNumber ?? orderFromHeaders(headerLines);
  // A success post with an order number is a checkout even when it names only a SKU: the
  // item is left blank rather than filled with a code. So is a header that names the checkout
  // with no word of its outcome (`Bot | Checkout`) over an order number under its label and a
  // figure: an order number exists only once a checkout went through.
  const checkout = header.verdict.kind === "success" ||
    (header.verdict.kind === "weak" && !!read.orderNumber && !!(read.price ?? read.total) &&
      namesCheckout(headerLines));
  if (items.length === 0 && !(checkout && orderNumber)) {
    return {
      reading: { kind: "unreadable", why: "checkout post without a product name" },
      ...redacted,
    };
  }
  const one = items.length <= 1 ? items[0] ?? {} : undefined;
  // `Total` is what was charged, never a unit price; the price is a labelled one, else the
  // figure of a single cart line. A cart of several products has one meaningful figure, its
  // total (fixture README rule 7).
  const fields: MessageFields & { itemSummary: string } = {
    itemSummary: joinNames(items),
    store: read.store ?? storeFromHeaders(headerLines, botNames) ??
      homes.find((h) => !isBotName(h, botNames)) ?? storeFromAuthor(cards, header, botNames) ??
      storeFromFooter(embed?.footer?.text, post.username),
    orderNumber,
    price: one && (read.price ?? one.price),
    total: read.total,
    quantity: read.quantity ?? one?.quantity,
    size: read.size ?? one?.size,
    imageUrl: imageOf(cards),
    ...read.tracking,
    estimatedDelivery: read.estimatedDelivery,
  };
  const defined = compact(fields);
  // A post with no item name is not shown on the community feed (its title is the item).
  const feed = defined.itemSummary
    ? compact<ChatFeed>({
      itemSummary: defined.itemSummary,
      store: defined.store,
      price: defined.price ?? defined.total,
      imageUrl: defined.imageUrl,
    })
    : undefined;
  const signals = headerSignals(headerLines.map(([, line]) => line));
  return {
    reading: { kind: "order", fields: defined, signals },
    ...redacted,
    ...(feed ? { feed } : {}),
  };
}

/** An embed whose own fields give an order number and a figure under their labels. */
function figured(embed: ChatEmbed | undefined): boolean {
  const own = fieldsFromPairs(readFields(embed?.fields ?? []));
  return !!own.orderNumber && !!(own.price ?? own.total);
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
