/**
 * A message as the readers see it: its headers and one block list (from the HTML part, or the
 * plain-text part line by line when there is no usable HTML), plus the markup found in the HTML.
 */
import { type Block, htmlToBlocks, type MicrodataItem } from "./html.ts";
import type { Mailbox, MimeMessage } from "./mime.ts";
import { clip, normaliseLine } from "../text.ts";

export interface Letter {
  from?: Mailbox;
  subject: string;
  /** The `Date` as written (a header, or a forward block's date line). */
  date?: string;
  messageId?: string;
  blocks: Block[];
  jsonLd: string[];
  microdata: MicrodataItem[];
}

const MAX_TEXT_LINES = 6_000;
const URL = /\bhttps?:\/\/[^\s<>"')\]]+/g;

/** Plain text to blocks: one per non-empty line, with the URLs in it as links. */
export function textToBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  for (const raw of text.split(/\r?\n/, MAX_TEXT_LINES)) {
    const quote = /^(\s*>)+/.exec(raw)?.[0].replace(/\s/g, "").length ?? 0;
    const line = normaliseLine(clip(raw.replace(/^(\s*>)+\s?/, ""), 4000));
    if (!line) continue;
    const b = block(line, quote);
    const columns = columnsOf(raw.replace(/^(\s*>)+\s?/, ""));
    if (columns) b.columns = columns;
    for (const m of line.matchAll(URL)) {
      b.links.push({ href: m[0].replace(/[.,;:]+$/, ""), text: "" });
    }
    blocks.push(b);
  }
  return blocks;
}

const MAX_COLUMNS = 8;

/**
 * The columns of a plain-text line: its parts apart by two spaces or more (or a tab), each with
 * the place it starts at (tabs stop every 8 places). Null for a line of one part.
 */
function columnsOf(raw: string): Block["columns"] | null {
  if (raw.length > 400 || !/\S(?: {2}|\t)/.test(raw)) return null;
  const columns: NonNullable<Block["columns"]> = [];
  let place = 0;
  let part = "";
  let start = 0;
  let gap = 0;
  const close = () => {
    const text = normaliseLine(part);
    if (text) columns.push({ text, start });
    part = "";
  };
  for (const c of raw) {
    const width = c === "\t" ? 8 - (place % 8) : 1;
    if (c === " " || c === "\t") gap += c === "\t" ? 2 : 1;
    else {
      if (gap >= 2 && part) close();
      if (!part) start = place;
      else if (gap === 1) part += " ";
      part += c;
      gap = 0;
    }
    place += width;
  }
  close();
  return columns.length >= 2 && columns.length <= MAX_COLUMNS ? columns : null;
}

function block(text: string, quote: number): Block {
  return { text, tag: "text", heading: false, links: [], images: [], quote };
}

/** The letter of a parsed message: HTML blocks when the HTML says anything, else its text. */
export function letterOf(message: MimeMessage): Letter {
  const blocks: Block[] = [];
  const jsonLd: string[] = [];
  const microdata: MicrodataItem[] = [];
  for (const html of message.html) {
    const doc = htmlToBlocks(html);
    blocks.push(...doc.blocks);
    jsonLd.push(...doc.jsonLd);
    microdata.push(...doc.microdata);
  }
  // An HTML part that says next to nothing (a wrapper around an image) yields to the text part.
  const htmlLines = blocks.reduce((n, b) => n + (b.text ? 1 : 0), 0);
  if (htmlLines < 3) {
    const textBlocks = message.text.flatMap((text) => textToBlocks(text));
    if (textBlocks.length > htmlLines) blocks.splice(0, blocks.length, ...textBlocks);
  }
  return {
    ...(message.from ? { from: message.from } : {}),
    subject: normaliseLine(message.subject ?? ""),
    date: message.header("date") ?? message.date,
    messageId: message.messageId,
    blocks,
    jsonLd,
    microdata,
  };
}
