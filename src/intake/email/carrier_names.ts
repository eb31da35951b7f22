/**
 * Carrier names. Ours, by the names mails print (`DHL Express`, `United States Postal Service`),
 * and carriers the service does not look up, by the names mails print (Japanese, Nordic, Latin
 * American, European posts and couriers). A mail that names one of them and none of ours gets
 * no carrier for a number whose shape only resembles one of ours (a 12-digit Sagawa or Yamato
 * number passes FedEx's check one time in ten): a blank rather than a guess.
 */
import type { CarrierKey } from "../../domain/tracking/carriers.ts";
import { foldKeepingOffsets } from "../text.ts";
import type { Block } from "./html.ts";
import { labelledValues } from "./labels.ts";

const CARRIER_NAMES: [RegExp, CarrierKey][] = [
  [/dhl express/i, "dhl-express"],
  [/\bdhl\b/i, "dhl"],
  [/\bups\b/i, "ups"],
  [/fedex|federal express/i, "fedex"],
  [/usps|postal service/i, "usps"],
];

/** The carrier of ours a name is (`USPS`, `DHL Express`), if it is one. */
export function ourCarrierNamed(name: string): CarrierKey | undefined {
  return CARRIER_NAMES.find(([re]) => re.test(name))?.[1];
}

/**
 * The carrier of ours a `Carrier` label names (`Carrier` / `USPS`, `Transportista: DHL Express`):
 * the mail's own word for a number whose shape our detection does not know.
 */
export function carrierUnderLabel(blocks: Block[]): CarrierKey | undefined {
  const named = labelledValues(
    blocks,
    "carrier",
    (raw) => raw.trim().length <= 40 && oneCarrierNamed(raw) ? raw : null,
    { max: 1, sentences: false },
  )[0];
  return named ? oneCarrierNamed(named.value) : undefined;
}

/**
 * The carrier of ours a short text names when it names no other (`UPS Ground`, `DHL-Sendungsnummer`):
 * `UPS or FedEx` and `DHL, then Evri` name none for sure.
 */
export function oneCarrierNamed(text: string): CarrierKey | undefined {
  const folded = foldKeepingOffsets(text);
  if (OTHER_CARRIERS.test(folded)) return undefined;
  const keys = new Set<CarrierKey>();
  for (const { start, end } of carrierNameSpans(folded)) {
    const key = ourCarrierNamed(folded.slice(start, end));
    if (key) keys.add(key);
  }
  return keys.size === 1 ? [...keys][0] : undefined;
}

const OTHER_CARRIERS = new RegExp(
  String
    .raw`\b(?:postnord|gls|(?:med|with|via|posten) bring|bring (?:express|parcels|logistics)|dao ?(?:365|express)|budbee|instabox|posti|correios|sedex|jadlog|loggi|estafeta|99 ?minutos|correo argentino|andreani|chilexpress|servientrega|royal mail|parcelforce|evri|hermes|yodel|postnl|colissimo|chronopost|mondial relay|dpd|correos|seur|mrw|brt|poste italiane|sda express|inpost|canada post|postes canada|purolator|australia post|cainiao|sagawa|yamato|japan post)\b` +
    "|佐川急便|ヤマト運輸|クロネコ|日本郵便|ゆうパック|ゆうパケット|西濃運輸|福山通運|宅急便",
);
const OUR_CARRIERS =
  /\b(?:ups|fedex|federal express|usps|postal service|dhl express|dhl|deutsche post)\b/;
const MAX_BLOCKS = 200;
const ANY_CARRIER = new RegExp(`${OUR_CARRIERS.source}|${OTHER_CARRIERS.source}`, "g");

/** The carrier names (ours or not) a folded text prints, as spans; the first `max` only. */
export function carrierNameSpans(folded: string, max = 5): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  ANY_CARRIER.lastIndex = 0;
  for (let m = ANY_CARRIER.exec(folded); m && out.length < max; m = ANY_CARRIER.exec(folded)) {
    out.push({ start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** Whether the mail names a carrier we do not look up and none that we do. */
export function namesOnlyOtherCarriers(blocks: Block[], subject = ""): boolean {
  let other = OTHER_CARRIERS.test(foldKeepingOffsets(subject));
  for (const b of blocks.slice(0, MAX_BLOCKS)) {
    const folded = foldKeepingOffsets(b.text);
    if (OUR_CARRIERS.test(folded)) return false;
    if (!other && OTHER_CARRIERS.test(folded)) other = true;
  }
  return other;
}

/**
 * The text after a carrier's name that opens it (`Colissimo 6A2271…` gives `6A2271…`), else the
 * text: under a tracking label the name is the number's carrier, never a part of the number.
 */
export function afterCarrierName(text: string): string {
  const t = text.replace(/^[#:\s]+/, "");
  const [span] = carrierNameSpans(foldKeepingOffsets(t.slice(0, 60)), 1);
  return span?.start === 0 && /^[\s:]/.test(t.slice(span.end)) ? t.slice(span.end) : text;
}

/** A preposition right before a carrier's name: the parcel goes with it (`mit DHL Paket`). */
const SHIPPED_WITH = new RegExp(
  String
    .raw`\b(?:with|via|by|using|mit|per|avec|par|con|met|tramite|com) (?:the )?(?:${OUR_CARRIERS.source})`,
  "g",
);
/** A return or exchange says how to send the parcel back, not how it came. */
const RETURNS = /\b(?:return|retour|rucksend|retoure|devoluci|devolu|reso|restitu|exchange)/;

/**
 * The one carrier of ours the mail's sentences say the parcel goes with (`shipped with UPS`,
 * `ist mit DHL Paket unterwegs`, `enviado con UPS`): undefined when the mail names two of ours
 * or another carrier anywhere (`Royal Mail`), or when only a returns sentence names it.
 */
export function carrierShippedWith(blocks: Block[], subject = ""): CarrierKey | undefined {
  if (OTHER_CARRIERS.test(foldKeepingOffsets(subject))) return undefined;
  const named = new Set<CarrierKey>();
  const anywhere = new Set<CarrierKey>();
  for (const b of blocks.slice(0, MAX_BLOCKS)) {
    const folded = foldKeepingOffsets(b.text);
    if (OTHER_CARRIERS.test(folded)) return undefined;
    for (const { start, end } of carrierNameSpans(folded)) {
      const key = ourCarrierNamed(folded.slice(start, end));
      if (key) anywhere.add(key);
    }
    if (b.text.length > 600 || RETURNS.test(folded)) continue;
    SHIPPED_WITH.lastIndex = 0;
    for (let m = SHIPPED_WITH.exec(folded), n = 0; m && n < 4; m = SHIPPED_WITH.exec(folded), n++) {
      const key = ourCarrierNamed(m[0].replace(/^\S+ (?:the )?/, ""));
      if (key) named.add(key);
    }
  }
  // Every name of ours the mail prints must be that one (`with UPS or FedEx` names two).
  return named.size === 1 && anywhere.size === 1 ? [...named][0] : undefined;
}
