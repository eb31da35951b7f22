/**
 * The tracking number, carrier and tracking page of a mail (research/intake.md §1.6), by
 * evidence: a number in a carrier URL or a tracking query key > a self-checking format in the
 * text > a value after a tracking label > a number without a check digit next to a carrier
 * name > a number after the word for the parcel that the subject repeats > a number after a
 * tracking label and a carrier's name in a sentence. Never from image URLs; never the order
 * number; formats whose check digit passes one number in ten or seven by chance (FedEx 12/15
 * digits, DHL Express 10/11) need a label, a carrier URL or a carrier name in their block.
 */
import type { CarrierKey } from "../../domain/tracking/carriers.ts";
import {
  detectCarrier,
  isS10,
  TRACKING_FORMS,
  type TrackingForm,
} from "../../domain/tracking/number.ts";
import { scanTrackingNumbers } from "../../domain/tracking/scan.ts";
import { foldKeepingOffsets } from "../text.ts";
import type { Block } from "./html.ts";
import { endsWithLabel, labelledValues } from "./labels.ts";
import { type Evidence, evidence, fromLabel } from "./evidence.ts";
import {
  afterCarrierName,
  carrierNameSpans,
  carrierShippedWith,
  carrierUnderLabel,
  namesOnlyOtherCarriers,
  oneCarrierNamed,
} from "./carrier_names.ts";
import { isCarrierUrl, isOpaqueTracker, trackingNumbersInUrl, unwrapLink } from "./links.ts";
import { numberAfterColon, PHONE, s10InSentence } from "./tracking_sentences.ts";

export interface Tracking {
  trackingNumber?: string;
  carrier?: CarrierKey;
  trackingUrl?: string;
  /** How the tracking number was found. */
  trackingEvidence?: Evidence;
}

/** Shapes only one carrier prints (`1Z…`, a US S10 number): they name it whatever the mail says. */
const OWN_SHAPES: ReadonlySet<TrackingForm> = new Set(["ups-1z", "usps-s10"]);
/** Formats a random number of the right length passes often enough to need more evidence. */
const WEAK_FORMS: ReadonlySet<TrackingForm> = new Set([
  "fedex-express-12",
  "fedex-ground-15",
  "fedex-sscc-18",
  "dhl-express-waybill",
  "dhl-ecommerce",
  "dhl-ecommerce-14",
  "dhl-piece-id",
  "ups-waybill",
]);
const CARRIER_WORDS =
  /\b(?:ups|united parcel service|fedex|federal express|usps|postal service|dhl|dhl express|deutsche post)\b/;
/** Words before a tracking label that name no carrier (`Your tracking number`). */
const LABEL_OPENER =
  /^(?:your|the|my|our|this|order|shipment|shipping|delivery|package|parcel|item|return)$/;

/**
 * `Evri parcel number`: the label names a carrier we do not look up, so the number's format
 * says nothing of its carrier (its number may have a DHL shape): no carrier rather than a guess.
 */
export function namesOtherCarrier(label: string): boolean {
  // `日本郵便の追跡番号`: the carrier's name, then `の`, opens a Japanese label.
  const owner = /^(\S{1,12})の(?:追跡|お問)/u.exec(label.trim())?.[1];
  if (owner) return !CARRIER_WORDS.test(foldKeepingOffsets(owner));
  const first = /^([a-z]+) (?:parcel|package|consignment|tracking)\b/.exec(
    foldKeepingOffsets(label).trim(),
  )?.[1];
  return !!first && !LABEL_OPENER.test(first) && !CARRIER_WORDS.test(first);
}
const CARRIER_NAME: Partial<Record<CarrierKey, RegExp>> = {
  ups: /\bups\b|united parcel/,
  fedex: /fedex|federal express/,
  usps: /\busps\b|postal service/,
  dhl: /\bdhl\b|deutsche post/,
  "dhl-express": /\bdhl\b/,
};

/** Whether the mail names a carrier in its text or links to its site (first 400 blocks). */
function namesCarrier(blocks: Block[], links: { target: string }[], carrier?: CarrierKey): boolean {
  const name = carrier && CARRIER_NAME[carrier];
  if (!name) return false;
  return blocks.slice(0, 400).some((b) => name.test(foldKeepingOffsets(b.text))) ||
    links.some((l) => name.test(l.target.toLowerCase()));
}

/**
 * `Transporteur : Relais Express`, `Carrier: Evri`: a carrier label names a carrier we do not
 * look up, so a number found only by its shape under a tracking label gets no carrier.
 */
function carrierLabelNamesOther(blocks: Block[]): boolean {
  const named = labelledValues(blocks, "carrier", (raw) => raw.trim() || null, {
    max: 1,
    sentences: false,
  })[0];
  return !!named && !CARRIER_WORDS.test(foldKeepingOffsets(named.value));
}
const TRACK_LINK_TEXT =
  /\b(?:track|tracking|trace|verfolgen|sendungsverfolgung|suivre|suivi|seguir|seguimiento|rastrear|traccia)\b/;
const MAX_LINKS = 300;
/** A tracking number of any carrier: 8 to 30 letters and digits, groups split by one space or dash. */
const OTHER_CARRIER_NUMBER = /^[#:\s]*([A-Z0-9]{2,30}(?:[ -][A-Z0-9]{2,30}){0,7})(?:$|[\s,;.)])/i;

/**
 * A carrier's own notice names the parcel by its number right after the word for it, in a
 * sentence: `Tu envío XK7Q…B ha sido entregado`, `Your parcel 3SABCD… is on its way`.
 */
const PARCEL_IN_SENTENCE =
  /(?<!\p{L})(?:envio|spedizione|colis|sendung|paket|zending|pakket|shipment|parcel|package|objeto|encomenda|pacote|pakke|forsendelse|forsandelse|sandning|lahetys)\s+(?:n[°º.o]*\s*)?([a-z0-9]{10,34})(?![\p{L}\p{N}])/gu;

/** Whether a colon stands right before the value in the text (`… Trace-code is: 3S…`). */
function handedByColon(text: string, value: string): boolean {
  const at = text.toUpperCase().indexOf(value);
  return at > 0 && /:\s*$/.test(text.slice(Math.max(0, at - 4), at));
}

const S10_TOKEN = /^[#:\s]*([A-Z]{2}\d{9}[A-Z]{2})(?![A-Z0-9])/i;

function normalisedOrder(orderNumber?: string): string | undefined {
  return orderNumber?.replace(/[\s#-]/g, "").toUpperCase();
}

/**
 * Reads the tracking facts of a block list. `orderNumber` is never taken as a tracking number;
 * `subject` (the mail's) vouches for a number a sentence names without a label.
 */
export function findTracking(
  blocks: Block[],
  orderNumber?: string,
  subject = "",
  sender = "",
): Tracking {
  // The mail's own words for its carrier: a carrier's notice names it only as its sender.
  const heading = `${subject} ${sender}`;
  let others: boolean | undefined;
  const onlyOtherCarriers = () => others ??= namesOnlyOtherCarriers(blocks, heading);
  const order = normalisedOrder(orderNumber);
  const isOrder = (n: string) => order !== undefined && n.replace(/-/g, "") === order;
  const links = blocks.flatMap((b) => b.links).slice(0, MAX_LINKS).map((l) => ({
    ...l,
    target: unwrapLink(l.href),
  }));
  // 1. A number in a carrier URL or a tracking query key.
  for (const link of links) {
    for (const t of trackingNumbersInUrl(link.target)) {
      if (!isOrder(t.trackingNumber)) {
        return {
          trackingNumber: t.trackingNumber,
          carrier: t.carrier,
          trackingUrl: link.target,
          trackingEvidence: evidence("generic", link.text || "tracking link"),
        };
      }
    }
  }
  let found: { trackingNumber: string; carrier?: CarrierKey } | undefined;
  let how: Evidence | undefined;
  // 2. A self-checking number of a strong format anywhere in the text.
  for (const b of blocks) {
    if (found) break;
    for (const c of scanTrackingNumbers(b.text, 5)) {
      if (
        TRACKING_FORMS[c.form].checkDigit && !WEAK_FORMS.has(c.form) && !isOrder(c.trackingNumber)
      ) {
        found = c;
        how = evidence("generic", "check digit");
        break;
      }
    }
  }
  // 3. A value after a tracking label (any detected format).
  if (!found) {
    const labelled = labelledValues(blocks, "trackingNumber", (raw) => {
      const token = /^[#:\s]*([A-Z0-9][A-Z0-9 -]{8,44}[A-Z0-9])/i.exec(afterCarrierName(raw.trim()))
        ?.[1];
      if (!token) return null;
      const d = detectCarrier(token);
      return d.valid && !isOrder(d.trackingNumber) ? d.trackingNumber : null;
    }, { max: 3 })[0];
    if (labelled) {
      const d = detectCarrier(labelled.value);
      if (d.valid) {
        const other = namesOtherCarrier(labelled.label) || carrierLabelNamesOther(blocks) ||
          // A shape one random number in ten passes names its carrier only with the mail's word.
          (WEAK_FORMS.has(d.form) &&
            (!namesCarrier(blocks, links, d.carrier) || onlyOtherCarriers()));
        found = { trackingNumber: d.trackingNumber, ...(other ? {} : { carrier: d.carrier }) };
        how = fromLabel(labelled);
      }
    }
  }
  // 3b. A number of a carrier we do not look up (Royal Mail, PostNL, Colissimo...) under a
  // tracking label: kept, with no carrier.
  if (!found) {
    const otherNumber = (raw: string) => {
      if (PHONE.test(raw)) return null;
      // Groups of a number printed in parts; a later group in lower case is a word (`… is ready`).
      const groups = OTHER_CARRIER_NUMBER.exec(afterCarrierName(raw.trim()))?.[1]?.split(/[ -]/);
      const word = groups?.findIndex((g, n) => n > 0 && /[a-z]/.test(g)) ?? -1;
      const token = groups?.slice(0, word < 0 ? undefined : word).join("");
      if (!token || token.replace(/\D/g, "").length < 6 || isOrder(token)) return null;
      return token.toUpperCase();
    };
    // In a sentence only when a colon hands the value over (`Je Track & Trace-code is: …`).
    const labelled = labelledValues(blocks, "trackingNumber", otherNumber, {
      max: 1,
      sentences: false,
    })[0] ?? labelledValues(blocks, "trackingNumber", otherNumber, { max: 3 }).find((l) =>
      // An S10-shaped number is a post's: its own check digit decides (3c), not the colon.
      l.shape === "sentence" && handedByColon(blocks[l.block].text, l.value) &&
      !/^[A-Z]{2}\d{9}[A-Z]{2}$/.test(l.value)
    );
    if (labelled) {
      found = { trackingNumber: labelled.value };
      how = fromLabel(labelled);
    }
  }
  // 3c. A UPU S10 number of any post (`TT405172635GB`) after a tracking label, in a sentence
  // too (`Royal Mail Tracked 24 tracking number: …`): its check digit vouches for it.
  if (!found) {
    const s10 = labelledValues(blocks, "trackingNumber", (raw) => {
      const token = S10_TOKEN.exec(raw.trim())?.[1]?.toUpperCase();
      return token && isS10(token) && !isOrder(token) ? token : null;
    }, { max: 1 })[0];
    if (s10) {
      found = { trackingNumber: s10.value };
      how = fromLabel(s10);
    }
  }
  // 3c'. The same S10 number right after a tracking label inside a sentence, with no colon
  // (`suivre votre colis avec le numéro de suivi XR…FR en cliquant`): its check digit vouches.
  // 3c''. A sentence that ends with a tracking label and a colon hands the value to the next
  // block when that block is only the number (`… de volgende track & trace code:` / `3S…`).
  if (!found) {
    const said = s10InSentence(blocks, isOrder) ?? numberAfterColon(blocks, isOrder);
    if (said) {
      found = { trackingNumber: said.trackingNumber };
      how = evidence("label", said.label);
    }
  }
  // 3d. A long number of letters and digits right after the word for the parcel in a sentence
  // (`Tu envío XK7Q… ha sido entregado`) that the subject names too, as a carrier's own
  // notice does: kept, with no carrier. Without the subject, a parcel's number is no more
  // than a mention.
  const inSubject = subject.toUpperCase();
  if (!found && inSubject) {
    for (const b of blocks.slice(0, 200)) {
      const folded = foldKeepingOffsets(b.text);
      const m = [...folded.matchAll(PARCEL_IN_SENTENCE)].find((m) =>
        m[1].replace(/\D/g, "").length >= 6 && !isOrder(m[1].toUpperCase()) &&
        inSubject.includes(m[1].toUpperCase())
      );
      if (m) {
        const start = m.index + m[0].length - m[1].length;
        found = { trackingNumber: b.text.slice(start, start + m[1].length).toUpperCase() };
        how = evidence("generic", b.text.slice(m.index, m.index + m[0].length));
        break;
      }
    }
  }
  // 4. A weak-format number in a block that names a carrier.
  if (!found) {
    for (const b of blocks) {
      if (found || !CARRIER_WORDS.test(foldKeepingOffsets(b.text))) continue;
      const c = scanTrackingNumbers(b.text, 3).find((c) => !isOrder(c.trackingNumber));
      if (c) {
        found = c;
        how = evidence("generic", CARRIER_WORDS.exec(foldKeepingOffsets(b.text))?.[0]);
      }
    }
  }
  // 5. In a sentence, a tracking label, a carrier's name and the number with nothing between
  // (`le numéro de suivi Colissimo 6A2271… :`): the carrier's name vouches that the label's value
  // follows. Kept with no carrier: the name may be of a carrier we do not look up.
  if (!found) {
    const named = numberAfterCarrierName(blocks, isOrder);
    if (named) {
      found = { trackingNumber: named.trackingNumber };
      how = evidence("generic", named.label);
    }
  }
  // A number read by its shape alone (a GS1 or SSCC number many posts use), in a mail that names
  // only carriers we do not look up (`PostNord`, `佐川急便`): no carrier rather than the shape's.
  if (
    found?.carrier && "form" in found && !OWN_SHAPES.has(found.form as TrackingForm) &&
    onlyOtherCarriers()
  ) {
    found = { trackingNumber: found.trackingNumber };
  }
  // A number whose shape names no carrier of ours, under a `Carrier` label naming one: that one;
  // else under a tracking label naming one (`UPS tracking number`, `DHL-Sendungsnummer`); else,
  // under any tracking label, the one carrier the mail says the parcel goes with (`mit DHL`).
  const labelled = found && !found.carrier && !onlyOtherCarriers()
    ? carrierUnderLabel(blocks) ??
      (how?.kind === "label" && !carrierLabelNamesOther(blocks)
        ? oneCarrierNamed(how.anchor ?? "") ?? carrierShippedWith(blocks, heading)
        : undefined)
    : undefined;
  return {
    ...found,
    ...(labelled ? { carrier: labelled } : {}),
    ...(how ? { trackingEvidence: how } : {}),
    ...trackingPage(links, found?.trackingNumber),
  };
}

/** `numéro de suivi Colissimo 6A2271…`: the number after a carrier's name after a tracking label. */
function numberAfterCarrierName(
  blocks: Block[],
  isOrder: (n: string) => boolean,
): { trackingNumber: string; label: string } | undefined {
  for (const b of blocks.slice(0, 200)) {
    if (b.text.length > 600 || !/\d/.test(b.text)) continue;
    const folded = foldKeepingOffsets(b.text);
    for (const { start, end } of carrierNameSpans(folded)) {
      const token = /^\s+([a-z0-9]{8,30})(?=$|[\s,;:.)])/.exec(folded.slice(end, end + 40))?.[1];
      if (!token || token.replace(/\D/g, "").length < 6) continue;
      const value = token.toUpperCase();
      if (isOrder(value) || !endsWithLabel(folded.slice(0, start), "trackingNumber")) continue;
      return { trackingNumber: value, label: b.text.slice(Math.max(0, start - 40), end).trim() };
    }
  }
  return undefined;
}

/** The mail's track link: a carrier page first, then the store's, never an opaque tracker. */
function trackingPage(
  links: { href: string; text: string; target: string }[],
  trackingNumber?: string,
): { trackingUrl?: string } {
  // Cheap tests first: most links name no number and say nothing of tracking.
  const usable = (l: { target: string }) =>
    /^https?:/i.test(l.target) && !isOpaqueTracker(l.target);
  const naming = trackingNumber
    ? links.find((l) => l.target.toUpperCase().includes(trackingNumber) && usable(l))
    : undefined;
  if (naming) return { trackingUrl: naming.target };
  const tracks = links.filter((l) => TRACK_LINK_TEXT.test(foldKeepingOffsets(l.text)) && usable(l));
  const carrier = tracks.find((l) => isCarrierUrl(l.target));
  const chosen = carrier ?? tracks[0];
  return chosen ? { trackingUrl: chosen.target } : {};
}
