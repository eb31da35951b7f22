/**
 * A custom template's captures as order fields: the message text it is matched against (the
 * subject, then the block list one line per block), and the conversion of each capture
 * (quantity to an integer, a tracking number to its carrier, a date to `YYYY-MM-DD`).
 */
import type { MessageFields } from "../../domain/orders/order.ts";
import { detectCarrier } from "../../domain/tracking/number.ts";
import { CARRIER_KEYS, type CarrierKey } from "../../domain/tracking/carriers.ts";
import { applyTemplate, type CompiledTemplate, MAX_MATCH_TEXT } from "./custom.ts";
import { dayString, headerDay, parseDay } from "./dates.ts";
import type { Letter } from "./letter.ts";

export type CustomValues = Partial<MessageFields>;

/** The text custom templates read: the subject line, then one line per block. */
export function letterText(letter: Letter): string {
  const lines = [letter.subject];
  let length = letter.subject.length;
  for (const b of letter.blocks) {
    if (length > MAX_MATCH_TEXT) break;
    lines.push(b.text);
    length += b.text.length + 1;
  }
  return lines.join("\n");
}

export function customValues(template: CompiledTemplate, letter: Letter): CustomValues {
  const raw = applyTemplate(template, letterText(letter));
  const out: CustomValues = {};
  for (const [field, value] of Object.entries(raw)) {
    if (field === "quantity") {
      const n = Number.parseInt(value, 10);
      if (n >= 1 && n <= 100_000) out.quantity = n;
    } else if (field === "trackingNumber") {
      const d = detectCarrier(value);
      out.trackingNumber = d.valid ? d.trackingNumber : value.replace(/\s/g, "");
      if (d.valid) out.carrier ??= d.carrier;
    } else if (field === "carrier") {
      const key = value.toLowerCase().replace(/\s+/g, "-");
      if ((CARRIER_KEYS as readonly string[]).includes(key)) out.carrier = key as CarrierKey;
    } else if (field === "estimatedDelivery") {
      const day = parseDay(value, { anchor: headerDay(letter.date) ?? undefined });
      if (day) out.estimatedDelivery = dayString(day);
    } else {
      (out as Record<string, string>)[field] = value;
    }
  }
  return out;
}
