/**
 * The share card as an SVG of 1200 x 630 (the Open Graph image size), drawn with the font the
 * service ships (Inter). Text is wrapped by an estimate of Inter's average glyph width, cut
 * with an ellipsis when it would not fit.
 */
import type { CardText } from "./share.ts";

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;
export const CARD_FONT = "Inter";

const MARGIN = 80;
/** Inter's average advance per character, in ems (bold and regular). */
const EM_PER_CHAR = { bold: 0.54, regular: 0.5 };

const escapeXml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Pictographs (emoji) have no glyph in the card's font: they are left out. */
const PICTOGRAPHS = /[\p{Extended_Pictographic}\u{FE0F}\u{200D}]/gu;

/** Breaks `text` into at most `maxLines` lines of about `perLine` characters. */
export function wrap(text: string, perLine: number, maxLines: number): string[] {
  const words = text.replace(PICTOGRAPHS, "").replace(/\s+/g, " ").trim().split(" ");
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    // A word longer than a line is cut into line-sized pieces.
    for (let piece = word; piece;) {
      const room = line ? perLine - line.length - 1 : perLine;
      if (piece.length <= room) {
        line = line ? `${line} ${piece}` : piece;
        piece = "";
      } else if (line) {
        lines.push(line);
        line = "";
      } else {
        lines.push(piece.slice(0, perLine));
        piece = piece.slice(perLine);
      }
    }
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  const last = kept[maxLines - 1];
  kept[maxLines - 1] = `${last.slice(0, Math.max(0, perLine - 1)).trimEnd()}…`;
  return kept;
}

const perLine = (size: number, weight: keyof typeof EM_PER_CHAR) =>
  Math.floor((CARD_WIDTH - 2 * MARGIN) / (size * EM_PER_CHAR[weight]));

/** The card's SVG. `footer` is the share's address, shown small at the bottom. */
export function cardSvg(card: CardText, kind: "order" | "profit", footer: string): string {
  const titleSize = 60;
  const lineSize = 36;
  const footerY = CARD_HEIGHT - 56;
  const title = wrap(card.title, perLine(titleSize, "bold"), 2);
  let y = 200;
  const text: string[] = [];
  for (const t of title) {
    text.push(
      `<text x="${MARGIN}" y="${y}" font-size="${titleSize}" font-weight="700" fill="#f8fafc">${
        escapeXml(t)
      }</text>`,
    );
    y += 74;
  }
  y += 30;
  // As many lines as fit above the footer.
  const room = Math.max(0, Math.floor((footerY - 48 - y) / 54) + 1);
  for (const l of card.lines.slice(0, room)) {
    const [shown] = wrap(l, perLine(lineSize, "regular"), 1);
    if (!shown) continue;
    text.push(
      `<text x="${MARGIN}" y="${y}" font-size="${lineSize}" fill="#cbd5e1">${
        escapeXml(shown)
      }</text>`,
    );
    y += 54;
  }
  const badge = kind === "profit" ? "PROFIT" : "ORDER";
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" ` +
    `viewBox="0 0 ${CARD_WIDTH} ${CARD_HEIGHT}" font-family="${CARD_FONT}">` +
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="#0f172a"/><stop offset="1" stop-color="#1e3a5f"/>` +
    `</linearGradient></defs>` +
    `<rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="url(#bg)"/>` +
    `<rect x="0" y="0" width="12" height="${CARD_HEIGHT}" fill="#38bdf8"/>` +
    `<text x="${MARGIN}" y="100" font-size="30" font-weight="700" fill="#38bdf8">Order Tracker</text>` +
    `<rect x="${CARD_WIDTH - MARGIN - 150}" y="66" width="150" height="46" rx="23" ` +
    `fill="none" stroke="#38bdf8" stroke-width="2"/>` +
    `<text x="${CARD_WIDTH - MARGIN - 75}" y="98" font-size="22" font-weight="700" ` +
    `fill="#38bdf8" text-anchor="middle" letter-spacing="2">${badge}</text>` +
    text.join("") +
    `<text x="${MARGIN}" y="${footerY}" font-size="24" fill="#64748b">${
      escapeXml(footer)
    }</text></svg>`;
}
