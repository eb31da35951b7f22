/**
 * Carrier detection from a tracking number's format and check digit (research/carriers.md
 * section 1, CONTRACT.md "Carriers"). Pure: no I/O.
 *
 * Precedence, where one string fits several formats (the research's suggested order):
 * 1. `1Z...` is UPS; a letter and ten digits is a UPS waybill.
 * 2. A UPU S10 item (2 letters, 8 digits, check digit, country: `RB123456785US`) with a valid
 *    check digit belongs to the postal operator of its country: `US` is USPS; any other country is another post, so no carrier of
 *    ours (`{valid: false}`), even when its letters also start a DHL eCommerce number. With a
 *    wrong check digit the S10 reading is dropped and the later rules still apply.
 * 3. 20 digits `00340434...` (an SSCC under DHL Paket's GS1 company prefix 340434) with a valid
 *    GS1 check is DHL, tried before USPS because such SSCCs also pass the USPS 20-digit rule.
 * 4. Digits only, by length: 22 digits `96...` is FedEx Ground; `91`-`95` are USPS. FedEx
 *    SmartPost's 20-30 digit `92...` numbers were USPS IMpb numbers all along (the corpus dropped
 *    them as FedEx), so USPS claims them. `420`+ZIP routed barcodes are USPS before the FedEx
 *    34-digit barcode, which also accepts a leading 4 (the corpus's one cross-match,
 *    `4201028200009261290113185417468510`, is USPS).
 * 5. 12 digits with the FedEx Express check is FedEx; DHL Paket's 12-digit numbers have no check
 *    digit the research documents, so they are not detected. 10 or 11 digits with the mod 7 check
 *    is DHL Express (no other carrier uses those lengths). 14 digits is DHL eCommerce, which has
 *    no check digit at all (weak: any 14 digits pass).
 * 6. DHL piece ids `J` + 2-3 letters + 9-10 digits (`JJD...`, `JVGL...`) are `dhl`: the corpus
 *    files them under DHL Express, the research also finds them on DHL Paket labels, and with no
 *    check digit nothing tells the two apart; DHL's one tracking API answers either.
 */
import type { CarrierKey } from "./carriers.ts";
import {
  fedexExpressCheckDigit,
  gs1CheckDigit,
  mod7CheckDigit,
  s10CheckDigit,
  upsCheckDigit,
} from "./check_digits.ts";

/** The formats detection knows, with the carrier each belongs to and whether it has a check. */
export const TRACKING_FORMS = {
  "ups-1z": { carrier: "ups", checkDigit: true },
  "ups-waybill": { carrier: "ups", checkDigit: true },
  "fedex-express-12": { carrier: "fedex", checkDigit: true },
  "fedex-ground-15": { carrier: "fedex", checkDigit: true },
  "fedex-sscc-18": { carrier: "fedex", checkDigit: true },
  "fedex-ground-96": { carrier: "fedex", checkDigit: true },
  "fedex-astra-32": { carrier: "fedex", checkDigit: true },
  "fedex-barcode-34": { carrier: "fedex", checkDigit: true },
  "usps-impb": { carrier: "usps", checkDigit: true },
  "usps-20": { carrier: "usps", checkDigit: true },
  "usps-legacy-91": { carrier: "usps", checkDigit: true },
  "usps-s10": { carrier: "usps", checkDigit: true },
  "dhl-paket-sscc": { carrier: "dhl", checkDigit: true },
  "dhl-piece-id": { carrier: "dhl", checkDigit: false },
  "dhl-ecommerce": { carrier: "dhl", checkDigit: false },
  "dhl-ecommerce-14": { carrier: "dhl", checkDigit: false },
  "dhl-express-waybill": { carrier: "dhl-express", checkDigit: true },
} as const satisfies Record<string, { carrier: CarrierKey; checkDigit: boolean }>;

export type TrackingForm = keyof typeof TRACKING_FORMS;

export type CarrierDetection =
  | { valid: true; carrier: CarrierKey; trackingNumber: string; form: TrackingForm }
  | { valid: false };

/** Raw input longer than this is not a tracking number, however many separators it has. */
export const MAX_RAW_LENGTH = 256;
/** Shortest and longest normalised forms (DHL Express waybill; DHL eCommerce prefix + 39). */
export const MIN_TRACKING_LENGTH = 10;
export const MAX_TRACKING_LENGTH = 41;

const SEPARATORS = /[\s\-\u2010-\u2015\u2212]+/g;
const ALPHANUMERIC = /^[A-Za-z0-9]+$/;
const DIGITS = /^[0-9]+$/;

/**
 * Upper-cased with whitespace and dashes removed, or null when anything else is left or the
 * length fits no format. The character test runs before upper-casing, which would turn `ß`
 * into `SS`.
 */
export function normalizeTrackingNumber(raw: string): string | null {
  if (raw.length > MAX_RAW_LENGTH) return null;
  const stripped = raw.replace(SEPARATORS, "");
  if (stripped.length < MIN_TRACKING_LENGTH || stripped.length > MAX_TRACKING_LENGTH) return null;
  return ALPHANUMERIC.test(stripped) ? stripped.toUpperCase() : null;
}

/** Longest number a carrier lookup or the order index takes (carriers' APIs stop near 40). */
export const MAX_TRACKING_KEY_LENGTH = 64;

/**
 * The form a tracking number is indexed and looked up by, whatever its carrier: upper-cased,
 * whitespace and dashes removed, letters and digits only, at most
 * {@link MAX_TRACKING_KEY_LENGTH}; null for anything else. Unlike
 * {@link normalizeTrackingNumber} it takes numbers of any format.
 */
export function trackingKey(raw: string): string | null {
  if (raw.length > MAX_RAW_LENGTH) return null;
  const stripped = raw.replace(SEPARATORS, "");
  if (stripped.length === 0 || stripped.length > MAX_TRACKING_KEY_LENGTH) return null;
  return ALPHANUMERIC.test(stripped) ? stripped.toUpperCase() : null;
}

/**
 * A tracking number read from a message, as the message writes it: the number with the hyphens
 * the message puts between its groups (Yamato's and Japan Post's `4982-1503-6675`), spaces left
 * out. `number` itself when the message writes it without hyphens (or not as such). Merges,
 * lookups and the index take {@link trackingKey}, so the two forms are one number.
 */
export function asWrittenIn(text: string, number: string): string {
  if (number.length > MAX_TRACKING_LENGTH || !ALPHANUMERIC.test(number)) return number;
  // No look-behind: a pattern that opens with a plain character lets the engine skip ahead to
  // it, where a look-behind is tried at every position of a long mail.
  const written = new RegExp([...number].join(" ?-? ?"), "gi");
  // A link may carry the number compact and the text with its hyphens: the first few looked at.
  for (let i = 0, m = written.exec(text); m && i < 8; i++, m = written.exec(text)) {
    const next = m.index + m[0].length;
    if (PART_OF_RUN.test(text[m.index - 1] ?? "") || PART_OF_RUN.test(text[next] ?? "")) continue;
    const form = m[0].replace(/ /g, "").toUpperCase();
    if (form.includes("-")) return form;
  }
  return number;
}

/** A character that would make a match part of a longer number or word. */
const PART_OF_RUN = /^[A-Za-z0-9-]$/;

/** Detects the carrier of a tracking number typed or pasted by a person. */
export function detectCarrier(raw: string): CarrierDetection {
  const trackingNumber = normalizeTrackingNumber(raw);
  const form = trackingNumber === null ? null : trackingForm(trackingNumber);
  if (trackingNumber === null || form === null) return { valid: false };
  return { valid: true, carrier: TRACKING_FORMS[form].carrier, trackingNumber, form };
}

/** The form of an already normalised number (upper-case A-Z and 0-9 only), or null. */
export function trackingForm(n: string): TrackingForm | null {
  return DIGITS.test(n) ? numericForm(n) : alphanumericForm(n);
}

/** Whether the last digit of `n` is what `expected` computed from the characters before it. */
function endsWith(n: string, expected: number): boolean {
  return n.charCodeAt(n.length - 1) - 48 === expected;
}

const gs1Valid = (n: string) => endsWith(n, gs1CheckDigit(n.slice(0, -1)));

const S10 = /^[A-Z]{2}[0-9]{9}[A-Z]{2}$/;
/** Whether `n` is a UPU S10 item number of any post with its check digit right (`TT405172635GB`). */
export function isS10(n: string): boolean {
  return S10.test(n) && n.charCodeAt(10) - 48 === s10CheckDigit(n.slice(2, 10));
}

const UPS_1Z = /^1Z[A-Z0-9]{15}[0-9]$/;
const UPS_WAYBILL = /^[AHJKTV][0-9]{10}$/;
const DHL_PIECE_ID = /^J[A-Z]{2,3}[0-9]{9,10}$/;
/** The corpus's DHL eCommerce prefixes; the character after the prefix must be a digit. */
const DHL_ECOMMERCE = /^(?:GM|LX|RX|UV|CN|SG|TH|IN|HK|MY)[0-9][0-9A-Z]{9,38}$/;

function alphanumericForm(n: string): TrackingForm | null {
  if (UPS_1Z.test(n)) return endsWith(n, upsCheckDigit(n.slice(2, 17))) ? "ups-1z" : null;
  if (UPS_WAYBILL.test(n)) return endsWith(n, upsCheckDigit(n.slice(1, 10))) ? "ups-waybill" : null;
  if (isS10(n)) {
    return n.endsWith("US") ? "usps-s10" : null;
  }
  if (DHL_PIECE_ID.test(n)) return "dhl-piece-id";
  if (DHL_ECOMMERCE.test(n)) return "dhl-ecommerce";
  return null;
}

/** The lengths `numericForm` accepts, for callers that want to skip the others cheaply. */
export const NUMERIC_LENGTHS: ReadonlySet<number> = new Set(
  [10, 11, 12, 14, 15, 18, 20, 22, 26, 28, 30, 32, 34],
);

function numericForm(n: string): TrackingForm | null {
  switch (n.length) {
    case 10:
    case 11:
      return endsWith(n, mod7CheckDigit(n.slice(0, -1))) ? "dhl-express-waybill" : null;
    case 12:
      return endsWith(n, fedexExpressCheckDigit(n.slice(0, -1))) ? "fedex-express-12" : null;
    case 14:
      return "dhl-ecommerce-14";
    case 15:
      return gs1Valid(n) ? "fedex-ground-15" : null;
    case 18:
      // SSCC-18: GS1 over all 17 digits. The corpus sums only the 15 after the two "container
      // type" digits, which agrees whenever those are 00 (all its examples).
      return gs1Valid(n) ? "fedex-sscc-18" : null;
    case 20:
      if (n.startsWith("00340434") && gs1Valid(n)) return "dhl-paket-sscc";
      return gs1Valid(n) ? "usps-20" : legacyUsps(n);
    case 22:
      if (n.startsWith("96")) {
        // The check covers only the trailing 7+7 digits (shipper and package): a Ground-15 body.
        return endsWith(n, gs1CheckDigit(n.slice(7, 21))) ? "fedex-ground-96" : null;
      }
      return uspsBody(n);
    case 26:
      return uspsBody(n);
    case 30:
      return n.startsWith("420") ? routedUsps(n) : uspsBody(n);
    case 28:
      return routedUsps(n);
    case 32:
      if (n.startsWith("3")) return fedexBarcode(n, 16) ? "fedex-astra-32" : null;
      return routedUsps(n);
    case 34:
      if (n.startsWith("420")) {
        const usps = routedUsps(n);
        if (usps !== null) return usps;
      }
      if (n.startsWith("9") && !n.startsWith("96")) return null;
      return fedexBarcode(n, 20) ? "fedex-barcode-34" : null;
    default:
      return null;
  }
}

/**
 * FedEx barcodes carry a 12- or 14-digit Express-checked number inside: the 11 or 13 digits from
 * `start`, then its check digit (ASTRA: 11 from position 16; 34-digit: 13 from position 20).
 */
function fedexBarcode(n: string, start: number): boolean {
  const end = n.length === 32 ? start + 11 : start + 13;
  return n.charCodeAt(end) - 48 === fedexExpressCheckDigit(n.slice(start, end));
}

/**
 * USPS Delivery/Signature Confirmation without the `91` application identifier: checked as if
 * `91` were in front (the corpus's `prepend_if`), unless it already starts with 91.
 */
function legacyUsps(n: string): TrackingForm | null {
  if (n.startsWith("91")) return gs1Valid(n) ? "usps-legacy-91" : null;
  return endsWith(n, gs1CheckDigit("91" + n.slice(0, -1))) ? "usps-legacy-91" : null;
}

/**
 * A 22, 26 or 30 digit USPS number (no routing prefix): `91` + 20 legacy, or IMpb: application
 * id 92-95, 3-digit service type, mailer id of 9 digits when it starts with 9 else 6, package id,
 * check digit. 92 requires a 9-digit mailer id, 93 a 6-digit one; 30 digits only as 94 with a
 * 9-digit mailer id (15-digit package id).
 */
function uspsBody(n: string): TrackingForm | null {
  if (n.length === 22 && n.startsWith("91")) return gs1Valid(n) ? "usps-legacy-91" : null;
  const ai = n.slice(0, 2);
  const longMailerId = n[5] === "9";
  const structured = ai === "94" || ai === "95" ||
    (ai === "92" && longMailerId) || (ai === "93" && !longMailerId);
  if (!structured || (n.length === 30 && !(ai === "94" && longMailerId))) return null;
  return gs1Valid(n) ? "usps-impb" : null;
}

/**
 * `420` + ZIP (5 or 9 digits) + a USPS number: 20-digit legacy (checked with `91` in front),
 * 22-digit legacy or IMpb, or 26-digit IMpb. The ZIP is not checked. Both splits are tried
 * (420+ZIP5+26 and 420+ZIP9+22 are both real); the corpus's regexes try only the one their
 * greedy ZIP+4 group finds first.
 */
function routedUsps(n: string): TrackingForm | null {
  if (!n.startsWith("420")) return null;
  for (const zip of [5, 9]) {
    const body = n.slice(3 + zip);
    const form = body.length === 20
      ? legacyUsps(body)
      : body.length === 22 || body.length === 26
      ? uspsBody(body)
      : null;
    if (form !== null) return form;
  }
  return null;
}
