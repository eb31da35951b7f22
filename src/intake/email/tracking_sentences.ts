/**
 * Tracking numbers a tracking label hands over inside running text (tracking.ts steps 3c' and
 * 3c''): an S10 number right after the label in a sentence, and the lone number in the block
 * after a sentence that ends with the label and a colon.
 */
import { isS10 } from "../../domain/tracking/number.ts";
import { foldKeepingOffsets } from "../text.ts";
import type { Block } from "./html.ts";
import { endsWithLabel } from "./labels.ts";

/** A phone number printed next to a tracking label (`call 1-800-555-0100`). */
export const PHONE = /(?:^|\D)(?:\+?1[-. ])?\(?\d{3}\)?[-. ]\d{3}[-. ]\d{4}(?!\d)/;

const S10_IN_TEXT = /(?<![a-z0-9])[a-z]{2}\d{9}[a-z]{2}(?![a-z0-9])/g;

/** An S10 number right after a tracking label in a block's sentence (3c'). */
export function s10InSentence(
  blocks: Block[],
  isOrder: (n: string) => boolean,
): { trackingNumber: string; label: string } | undefined {
  for (const b of blocks.slice(0, 200)) {
    if (b.text.length > 600 || !/\d{9}/.test(b.text)) continue;
    const folded = foldKeepingOffsets(b.text);
    S10_IN_TEXT.lastIndex = 0;
    for (let m = S10_IN_TEXT.exec(folded), n = 0; m && n < 5; m = S10_IN_TEXT.exec(folded), n++) {
      const value = m[0].toUpperCase();
      if (!isS10(value) || isOrder(value)) continue;
      if (!endsWithLabel(folded.slice(0, m.index).trimEnd(), "trackingNumber")) continue;
      return { trackingNumber: value, label: lastWords(b.text.slice(0, m.index)) };
    }
  }
  return undefined;
}

/** The last few words of a text, whole (the evidence of a label read inside a sentence). */
function lastWords(text: string): string {
  const tail = text.trimEnd().slice(-40);
  return (text.trimEnd().length > 40 ? tail.replace(/^\S*\s/, "") : tail).trim();
}

/** A block that is only a number of capitals and digits, groups split by one space or dash. */
const LONE_NUMBER = /^([A-Z0-9]{2,30}(?:[ -][A-Z0-9]{2,30}){0,7})$/;

/** A sentence ending `tracking label:` and the next block only the number (3c''). */
export function numberAfterColon(
  blocks: Block[],
  isOrder: (n: string) => boolean,
): { trackingNumber: string; label: string } | undefined {
  for (let i = 0; i + 1 < Math.min(blocks.length, 200); i++) {
    const text = blocks[i].text.trim();
    if (text.length > 600 || !text.endsWith(":")) continue;
    const folded = foldKeepingOffsets(text.slice(0, -1)).trimEnd();
    if (!endsWithLabel(folded, "trackingNumber")) continue;
    const token = LONE_NUMBER.exec(blocks[i + 1].text.trim())?.[1].replace(/[ -]/g, "");
    if (!token || token.replace(/\D/g, "").length < 6) continue;
    const value = token.toUpperCase();
    if (isOrder(value) || PHONE.test(blocks[i + 1].text)) continue;
    return { trackingNumber: value, label: lastWords(text) };
  }
  return undefined;
}
