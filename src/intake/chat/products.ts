/**
 * The products of a checkout post when no product label names them: the first loose line of
 * its description or content (a cart of priced lines, after a shop's home-page link), a header
 * that says `Checked out <product>`, a field named after the product, or a plain title; and
 * their names joined for the order's item summary. Kept apart from `read.ts`, which decides
 * whether a post is an order and assembles its fields, because these are the fallbacks of one
 * field, tried in a fixed order. Pure.
 */
import type { ChatEmbed } from "../../domain/intake/chat_embed.ts";
import { isName, type LineItem, readLineItem } from "./fields.ts";
import { type Header, type HeaderPlace, judgeLine } from "./header.ts";
import { isSectionName } from "./pairs.ts";
import { isBotName } from "./shop_name.ts";
import { cleanText } from "./text.ts";

export interface LooseText {
  loose: { line: string; index: number }[];
  where: HeaderPlace;
  /** Lines that are only a link to a site's home page: a shop's name, never the product. */
  homes: string[];
}

/** A line that is only a link to a site's root: `[Kith](https://kith.com)`, emphasis allowed. */
const HOME_LINK = /^[\s*_~]*\[([^\]\n]{1,100})\]\(<?https?:\/\/[^\s/()<>]{1,253}\/?>?\)[\s*_~]*$/;

/** The names of home-page links among a description's first two lines (after its header). */
export function homeLinks(description: string | undefined): string[] {
  if (!description) return [];
  const out: string[] = [];
  const lines = description.split(/\r\n|\r|\n/, 50).filter((l) => l.trim() !== "");
  for (const line of lines.slice(0, 2)) {
    const found = HOME_LINK.exec(line);
    const name = found && cleanText(found[1]);
    if (name && isName(name)) out.push(name);
  }
  return out;
}

/**
 * The products, from the first place that names them: product labels; a description (or
 * content) whose first line (after a success header) is the product or a run of cart lines;
 * `Success: <product>` or `Checked out <product>` in a header; a field named after the product
 * whose value holds its details; the title when the success words are elsewhere and it says
 * nothing else (a bare `Checkout` is no product), or, with no word of the outcome anywhere, when
 * the embed's own fields give an order number and a figure under their labels (`figured`): an
 * order number exists only once a checkout went through, and the title is then its product.
 */
export function pickItems(
  labelled: LineItem[],
  { loose, where, homes }: LooseText,
  headings: string[],
  cards: readonly ChatEmbed[],
  header: Header,
  headerLines: [HeaderPlace, string][],
  botNames: string[],
  figured = false,
): LineItem[] {
  if (labelled.length > 0) return labelled;
  // The header line itself is loose text too: what follows it is where a product may be.
  let start = header.where === where ? 1 : 0;
  // A shop's home link above the product (`[Kith](https://kith.com)` / `**Product**`).
  const home = loose.find((l) => l.index === start && homes.includes(l.line));
  if (home) start++;
  const after = loose.filter((l) => l.index >= start);
  const firstLoose = after[0];
  if (firstLoose && firstLoose.index === start && isProductLine(firstLoose.line)) {
    const run: LineItem[] = [];
    for (const [n, { line, index }] of after.entries()) {
      const item = readLineItem(line, true);
      if (index !== start + n || item.price === undefined || !isName(item.name)) break;
      run.push(item);
    }
    return run.length > 1 ? run : [readLineItem(firstLoose.line, true)];
  }
  const said = header.product ? header : headerLines.map(([, line]) => judgeLine(line))
    .find((v) => v.product);
  const named = said?.product;
  if (named && isName(named)) {
    return [{ ...readLineItem(named, false), ...(said.price ? { price: said.price } : {}) }];
  }
  // A field named after the product, its value the product's details (`Size: 10`...).
  const heading = headings.find((h) => isName(h) && judgeLine(h).kind === "none");
  if (heading) return [readLineItem(heading, false)];
  // A title, when the success words are elsewhere: the checkout embed's own, else that of an
  // embed of the same checkout (not a part's heading: `Order Details`, `Shipping Info`).
  if (header.verdict.kind !== "success" && !(figured && header.verdict.kind === "none")) return [];
  // With no success words, only the title of the embed that holds the figures.
  const titled = header.verdict.kind === "success" ? cards : cards.slice(0, 1);
  for (const [n, card] of titled.entries()) {
    const title = cleanText(card.title);
    const plain = title && judgeLine(title).kind === "none" && isName(title);
    const own = (n > 0 || header.where !== "title") && !isSectionName(title);
    if (plain && own && !isBotName(title, botNames)) return [readLineItem(title, false)];
  }
  return [];
}

/** A line that names something and says nothing about the post's outcome. */
function isProductLine(line: string): boolean {
  const kind = judgeLine(line).kind;
  return isName(line) && (kind === "none" || kind === "weak");
}

/** Product names joined with `, ` in printed order, within the order schema's 2000. */
export function joinNames(items: readonly LineItem[]): string {
  let out = "";
  for (const { name } of items) {
    const next = out ? `${out}, ${name}` : name;
    if (next.length > 2000) break;
    out = next;
  }
  return out;
}
