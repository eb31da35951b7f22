/**
 * HTML to a block list (research/intake.md §1.3): one block per cell, paragraph, list item or
 * `<br>`-separated line, each with the links and images inside it, in reading order; table cells
 * keep their table, row and column so a header row can be paired with the row under it. Hidden
 * elements (preheaders, `display:none`, `mso-hide:all`), `<style>`, `<script>` and `<head>` are
 * dropped; JSON-LD scripts and microdata items are collected for the markup reader.
 * Streaming (htmlparser2's tokenizer, no DOM), and bounded in input, elements and blocks.
 */
import { Parser } from "htmlparser2";
import { clip, normaliseLine } from "../text.ts";
import { FastTokenizer } from "./html_tokenizer.ts";

export const HTML_LIMITS = {
  maxChars: 1024 * 1024,
  maxElements: 60_000,
  maxDepth: 1_000,
  maxBlocks: 6_000,
  maxBlockChars: 2_000,
  maxJsonLdChars: 200_000,
  maxMicrodataItems: 50,
} as const;

/** Links and images kept per block (a block of 100,000 links keeps the first ones). */
const MAX_PER_BLOCK = 100;

export interface Link {
  href: string;
  text: string;
}

export interface Image {
  src: string;
  alt: string;
  width?: number;
  height?: number;
}

export interface Block {
  text: string;
  /** The element that made the block (`td`, `p`, `li`, `h1`, `div`, `br`, `text` for plain text). */
  tag: string;
  /** Inside an `h1`-`h3`, or bold large type standing alone. */
  heading: boolean;
  /** Table position of the innermost open cell when the block was written. */
  cell?: { table: number; row: number; col: number };
  links: Link[];
  images: Image[];
  /** How many forwarded/quoted containers (`gmail_quote`, `blockquote type=cite`, ...) enclose it. */
  quote: number;
  /**
   * A plain-text line laid out in columns (parts apart by two spaces or more, or a tab): each
   * part with the column it starts at, so a header line can be paired with the line under it.
   */
  columns?: { text: string; start: number }[];
}

export interface MicrodataItem {
  type: string;
  props: Record<string, (string | MicrodataItem)[]>;
}

export interface HtmlDocument {
  blocks: Block[];
  jsonLd: string[];
  microdata: MicrodataItem[];
}

const BLOCK_TAGS = new Set([
  "p",
  "div",
  "td",
  "th",
  "li",
  "tr",
  "table",
  "tbody",
  "thead",
  "tfoot",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "br",
  "hr",
  "ul",
  "ol",
  "blockquote",
  "section",
  "article",
  "header",
  "footer",
  "center",
  "dt",
  "dd",
  "dl",
  "pre",
  "address",
  "form",
  "caption",
  "body",
  "html",
  "main",
  "nav",
  "aside",
  "figure",
  "figcaption",
]);
const SKIPPED_TAGS = new Set([
  "style",
  "script",
  "head",
  "title",
  "noscript",
  "template",
  "svg",
  "xml",
]);
const HIDDEN_STYLE =
  /display\s*:\s*none|mso-hide\s*:\s*all|max-height\s*:\s*0(?:px|em|pt)?\s*(?:;|!|$)|visibility\s*:\s*hidden/i;
/**
 * An inline element styled as a block (`<span style="display:block">`): a browser starts a new line
 * for it, so it ends the text before it and its own text is a line of its own. Images are left
 * inline: `display:block` on an `<img>` only removes the gap under it.
 */
const BLOCK_STYLE = /(?:^|[;\s"])display\s*:\s*(?:block|flex|list-item|table)\b/i;
const QUOTE_CLASSES =
  /\b(?:gmail_quote|gmail_extra|yahoo_quoted|moz-forward-container|moz-cite-prefix|protonmail_quote|tutanota_quote|zmail_extra|iosymail)\b/i;
const QUOTE_IDS = /^(?:divRplyFwdMsg|mail-editor-reference-message-container|replySplit)$/i;
const HEADINGS = new Set(["h1", "h2", "h3"]);

interface Open {
  name: string;
  hidden: boolean;
  skipped: boolean;
  quote: boolean;
  heading: boolean;
  /** An inline element styled `display:block`: it ends a block when it opens and closes. */
  styledBlock?: boolean;
  /** Microdata: the item this element opened, and the property it fills. */
  item?: MicrodataItem;
  prop?: string;
  propText?: string[];
  link?: Link;
  jsonLd?: string[];
}

interface Table {
  id: number;
  row: number;
  col: number;
}

/** Reads an HTML body into blocks. Never throws on malformed HTML. */
export function htmlToBlocks(html: string): HtmlDocument {
  const doc: HtmlDocument = { blocks: [], jsonLd: [], microdata: [] };
  const stack: Open[] = [];
  const tables: Table[] = [];
  const cells: Table[] = [];
  const itemStack: MicrodataItem[] = [];
  let tableCount = 0;
  let elements = 0;
  let jsonLdChars = 0;
  let text = "";
  let links: Link[] = [];
  let images: Image[] = [];
  let hiddenDepth = 0;
  let skippedDepth = 0;
  let quoteDepth = 0;
  let headingDepth = 0;
  let stopped = false;
  // Side stacks keep every callback O(1) however deep the elements nest.
  const blockNames: string[] = [];
  const openLinks: Link[] = [];
  const openProps: Open[] = [];
  /** The innermost open block element: what a block written now is part of. */
  const blockTag = () => blockNames.at(-1) ?? "text";

  const flush = (tag: string) => {
    const line = normaliseLine(clip(text, HTML_LIMITS.maxBlockChars * 2));
    if ((line || images.length > 0) && doc.blocks.length < HTML_LIMITS.maxBlocks) {
      const cell = cells.at(-1);
      const blockText = clip(line, HTML_LIMITS.maxBlockChars);
      const heading = headingDepth > 0;
      doc.blocks.push(
        cell
          ? {
            text: blockText,
            tag,
            heading,
            cell: { table: cell.id, row: cell.row, col: cell.col },
            links,
            images,
            quote: quoteDepth,
          }
          : { text: blockText, tag, heading, links, images, quote: quoteDepth },
      );
      links = [];
      images = [];
    }
    // Links of an empty block (an image-less button) stay for the next block.
    text = "";
  };

  const parser = new Parser({
    onopentag(name, attribs) {
      if (stopped) return;
      if (++elements > HTML_LIMITS.maxElements || stack.length >= HTML_LIMITS.maxDepth) {
        // The tokenizer stops here: the parser's own work grows with nesting depth.
        stopped = true;
        parser.pause();
        return;
      }
      const style = attribs.style;
      const hidden = (style !== undefined && HIDDEN_STYLE.test(style)) || "hidden" in attribs ||
        (attribs["aria-hidden"] === "true" && /display|height\s*:\s*0/i.test(style ?? ""));
      const isJsonLd = name === "script" && /ld\+json/i.test(attribs.type ?? "");
      const skipped = SKIPPED_TAGS.has(name) && !isJsonLd;
      const quote = (attribs.class !== undefined && QUOTE_CLASSES.test(attribs.class)) ||
        (attribs.id !== undefined && QUOTE_IDS.test(attribs.id)) ||
        (name === "blockquote" && /cite/i.test(attribs.type ?? "")) || attribs.name === "quote";
      const open: Open = { name, hidden, skipped, quote, heading: HEADINGS.has(name) };
      if (isJsonLd) open.jsonLd = [];
      const isBlock = BLOCK_TAGS.has(name);
      if (!isBlock && !hidden && name !== "img" && style !== undefined && BLOCK_STYLE.test(style)) {
        open.styledBlock = true;
      }
      // A block-styled element with no text before it on its line starts the block: the picture
      // above it stays with its text, as when nothing split them.
      const breaks = isBlock || (open.styledBlock && /\S/.test(text));
      if (breaks && hiddenDepth === 0 && skippedDepth === 0) flush(blockTag());
      stack.push(open);
      if (isBlock && name !== "br") blockNames.push(name);
      if (hidden) hiddenDepth++;
      if (skipped) skippedDepth++;
      if (quote) quoteDepth++;
      if (open.heading) headingDepth++;
      const visible = hiddenDepth === 0 && skippedDepth === 0;
      if (name === "table") tables.push({ id: ++tableCount, row: -1, col: -1 });
      if (name === "tr" && tables.length > 0) {
        const table = tables.at(-1)!;
        table.row++;
        table.col = -1;
      }
      if ((name === "td" || name === "th") && tables.length > 0) {
        const table = tables.at(-1)!;
        table.col++;
        cells.push({ id: table.id, row: Math.max(table.row, 0), col: table.col });
        table.col += Math.max(0, (Number(attribs.colspan) || 1) - 1);
      }
      if (visible && name === "a" && attribs.href && links.length < MAX_PER_BLOCK) {
        open.link = { href: attribs.href.trim(), text: "" };
        links.push(open.link);
        openLinks.push(open.link);
      }
      if (visible && name === "img" && attribs.src && images.length < MAX_PER_BLOCK) {
        const image: Image = { src: attribs.src.trim(), alt: normaliseLine(attribs.alt ?? "") };
        const width = dimension("width", attribs);
        if (width !== undefined) image.width = width;
        const height = dimension("height", attribs);
        if (height !== undefined) image.height = height;
        images.push(image);
      }
      microdataOpen(open, attribs);
    },
    ontext(data) {
      if (stopped) return;
      const top = stack.at(-1);
      if (top?.jsonLd && jsonLdChars < HTML_LIMITS.maxJsonLdChars) {
        top.jsonLd.push(data);
        jsonLdChars += data.length;
        return;
      }
      for (const open of openProps) if (open.propText!.length < 200) open.propText!.push(data);
      if (hiddenDepth > 0 || skippedDepth > 0) return;
      // Cents set in superscript after the whole amount (`<sup>$</sup>6<sup>13</sup>`).
      if (top?.name === "sup" && /^\d{2}$/.test(data) && /[$€£¥]\s?\d+$/.test(text)) text += ".";
      if (text.length < HTML_LIMITS.maxBlockChars * 2) text += data;
      const link = openLinks.at(-1);
      if (link && link.text.length < 500) link.text += data;
    },
    onclosetag(name) {
      if (stopped) return;
      const visible = hiddenDepth === 0 && skippedDepth === 0;
      if ((BLOCK_TAGS.has(name) || stack.at(-1)?.styledBlock) && visible) flush(blockTag());
      const open = stack.pop();
      if (!open) return;
      if (BLOCK_TAGS.has(open.name) && open.name !== "br") blockNames.pop();
      if (open.link) openLinks.pop();
      if (open.propText) openProps.pop();
      if (open.hidden) hiddenDepth--;
      if (open.skipped) skippedDepth--;
      if (open.quote) quoteDepth--;
      if (open.heading) headingDepth--;
      if (open.link) open.link.text = normaliseLine(open.link.text);
      if (open.jsonLd) doc.jsonLd.push(open.jsonLd.join(""));
      if (name === "table") tables.pop();
      if ((name === "td" || name === "th") && cells.length > 0) cells.pop();
      microdataClose(open);
    },
  }, {
    decodeEntities: true,
    lowerCaseTags: true,
    lowerCaseAttributeNames: true,
    Tokenizer: FastTokenizer,
  });

  const microdataOpen = (open: Open, attribs: Record<string, string>) => {
    const prop = attribs.itemprop?.trim().split(/\s+/)[0];
    if ("itemscope" in attribs) {
      const item: MicrodataItem = { type: lastSegment(attribs.itemtype ?? ""), props: {} };
      if (prop && itemStack.length > 0) addProp(itemStack.at(-1)!, prop, item);
      else if (doc.microdata.length < HTML_LIMITS.maxMicrodataItems) doc.microdata.push(item);
      itemStack.push(item);
      open.item = item;
      return;
    }
    if (!prop || itemStack.length === 0) return;
    const direct = attribs.content ??
      (open.name === "link" || open.name === "a" ? attribs.href : undefined) ??
      (open.name === "img" ? attribs.src : undefined) ??
      (open.name === "time" ? attribs.datetime : undefined);
    if (direct !== undefined) addProp(itemStack.at(-1)!, prop, direct.trim());
    else if (openProps.length < 50) {
      open.prop = prop;
      open.propText = [];
      openProps.push(open);
    }
  };
  const microdataClose = (open: Open) => {
    if (open.item) itemStack.pop();
    if (open.prop && open.propText && itemStack.length > 0) {
      addProp(itemStack.at(-1)!, open.prop, normaliseLine(clip(open.propText.join(""), 2000)));
    }
  };

  parser.write(clip(html, HTML_LIMITS.maxChars));
  if (!stopped) parser.end();
  flush("text");
  return doc;
}

function addProp(item: MicrodataItem, prop: string, value: string | MicrodataItem): void {
  const list = item.props[prop] ??= [];
  if (list.length < 20) list.push(value);
}

function lastSegment(type: string): string {
  return type.trim().split(/\s+/)[0].replace(/\/+$/, "").split("/").pop() ?? "";
}

const STYLE_SIZE = {
  width: /(?:^|;)\s*(?:max-)?width\s*:\s*(\d+)px/i,
  height: /(?:^|;)\s*(?:max-)?height\s*:\s*(\d+)px/i,
} as const;

/** A size from the attribute, else from the inline style (`width:120px`), else undefined. */
function dimension(key: "width" | "height", attribs: Record<string, string>): number | undefined {
  const fromAttr = Number.parseInt(attribs[key] ?? "", 10);
  if (Number.isFinite(fromAttr)) return fromAttr;
  const style = attribs.style;
  if (style === undefined) return undefined;
  const fromStyle = Number.parseInt(STYLE_SIZE[key].exec(style)?.[1] ?? "", 10);
  return Number.isFinite(fromStyle) ? fromStyle : undefined;
}
