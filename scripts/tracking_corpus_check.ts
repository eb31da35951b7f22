/**
 * Detection against the tracking-number corpus (jkeen/tracking_number_data) in `../shared`
 * beside the repository: every test number of the corpus, and generated numbers compared with
 * the corpus's own format and checksum definitions. Studied material, not part of the
 * repository, so this is not part of the test suite (tests/tracking/number_test.ts
 * uses the project's own fixtures); it runs with `deno task accuracy`:
 * `deno test --allow-read scripts/tracking_corpus_check.ts`.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import type { CarrierKey } from "../src/domain/tracking/carriers.ts";
import { detectCarrier } from "../src/domain/tracking/number.ts";
import {
  checksumPasses,
  compact,
  type CorpusForm,
  formAccepts,
  formCarrier,
  loadCorpus,
} from "./tracking_corpus.ts";
import { seeded } from "./seeded.ts";
import { detected, valid, type Verdict } from "./tracking_fixtures.ts";

const corpus = await loadCorpus();

/**
 * The documented precedence (src/domain/tracking/number.ts), as an order of the corpus's format
 * ids plus two of EXTRA_FORMS below. The first format that accepts a number decides it.
 */
const PRECEDENCE = [
  "ups",
  "ups_waybill",
  "s10",
  "dhl_paket_sscc",
  "fedex_ground_96",
  "usps_impb_n",
  "usps_impb_c",
  "usps_legacy",
  "usps_20",
  "usps_routed",
  "fedex_12",
  "fedex_ground",
  "fedex_ground_sscc_18",
  "fedex_34",
  "fedex_ground_gsn",
  "fedex_astra_32",
  "dhl_express_piece_id",
  "dhl_ecommerce",
  "dhl_ecommerce_14",
  "dhl_express",
];

const GS1 = { name: "mod10", evens_multiplier: 3, odds_multiplier: 1 };
const S10_SHAPE = /^[A-Z]{2}([0-9]{8})([0-9])[A-Z]{2}$/;
const S10_CHECKSUM = { name: "s10", weightings: [8, 6, 4, 2, 3, 5, 9, 7] };

/** DHL Paket SSCC (research, not in the corpus): AI 00 + GS1 prefix 340434, GS1 check. */
function paketSscc(number: string): boolean {
  return /^00340434[0-9]{12}$/.test(number) &&
    checksumPasses(GS1, number.slice(0, 19), number.slice(19));
}

/**
 * `420` + ZIP5 or ZIP9 + a USPS number that may carry routing. The corpus's regexes take the
 * first split their greedy ZIP+4 group finds and stop there when its checksum fails; detection
 * (deliberately) accepts either split, since both 420+ZIP5+26 and 420+ZIP9+22 digits exist.
 */
function routedUsps(number: string): boolean {
  const routable = corpus.filter((form) =>
    ["usps_impb_n", "usps_impb_c", "usps_legacy"].includes(form.id)
  );
  return number.startsWith("420") && [5, 9].some((zip) => {
    const body = number.slice(3 + zip);
    return [20, 22, 26].includes(body.length) && routable.some((form) => formAccepts(form, body));
  });
}

/** Formats the research adds, or reads more widely than the corpus, by their id in PRECEDENCE. */
const EXTRA_FORMS: Record<string, { carrier: CarrierKey; accepts: (number: string) => boolean }> = {
  dhl_paket_sscc: { carrier: "dhl", accepts: paketSscc },
  usps_routed: { carrier: "usps", accepts: routedUsps },
};

/** What detection should answer for `raw`, from the corpus's own definitions. */
function expected(raw: string): Verdict {
  const number = compact(raw);
  const s10 = S10_SHAPE.exec(number);
  // Deliberate: an S10 number with a valid check digit belongs to a post even when its country
  // letters are missing from the corpus's UPU table (the corpus would then fall through to DHL
  // eCommerce for a GM/LX/RX... prefix); only `US` is ours.
  if (s10 !== null && checksumPasses(S10_CHECKSUM, s10[1], s10[2])) {
    return number.endsWith("US") ? valid("usps", number) : { valid: false };
  }
  // Deliberate: an 18-digit SSCC is GS1-checked over all 17 digits, not the corpus's last 15.
  if (/^[0-9]{18}$/.test(number)) {
    const sscc = checksumPasses(GS1, number.slice(0, 17), number.slice(17));
    return sscc ? valid("fedex", number) : { valid: false };
  }
  for (const id of PRECEDENCE) {
    const extra = EXTRA_FORMS[id];
    if (extra !== undefined) {
      if (extra.accepts(number)) return valid(extra.carrier, number);
      continue;
    }
    const form = corpus.find((candidate) => candidate.id === id)!;
    if (formAccepts(form, number)) return verdict(form, number);
  }
  return { valid: false };
}

/** What a number that `form` accepts should be detected as. */
function verdict(form: CorpusForm, number: string): Verdict {
  const carrier = formCarrier(form, number);
  return carrier === "other" ? { valid: false } : valid(carrier, number);
}

Deno.test("the precedence names every corpus format", () => {
  deepEqual(
    corpus.map((form) => form.id).filter((id) => !PRECEDENCE.includes(id)),
    [],
  );
});

Deno.test("every corpus test number is classified as its format's carrier", () => {
  let classified = 0;
  const byCarrier: Record<string, number> = {};
  for (const form of corpus) {
    for (const raw of form.valid) {
      const carrier = formCarrier(form, compact(raw));
      const want = verdict(form, compact(raw));
      deepEqual(detected(raw), want, `${form.id} valid ${raw}`);
      deepEqual(expected(raw), want, `the oracle agrees on ${raw}`);
      byCarrier[carrier] = (byCarrier[carrier] ?? 0) + 1;
      classified++;
    }
    for (const raw of form.invalid) {
      deepEqual(detected(raw), { valid: false }, `${form.id} invalid ${raw}`);
      byCarrier.invalid = (byCarrier.invalid ?? 0) + 1;
      classified++;
    }
  }
  // The corpus as studied (b79ce4b): 97 valid and 46 invalid numbers; `other` are S10 items of
  // posts other than USPS. A missing, emptied or changed corpus fails here.
  equal(classified, 143);
  deepEqual(byCarrier, {
    ups: 12,
    fedex: 34,
    usps: 32,
    other: 3,
    dhl: 9,
    "dhl-express": 7,
    invalid: 46,
  });
});

Deno.test("the corpus's USPS 20-digit format would take the research's DHL Paket SSCCs", () => {
  // Detection calls them DHL (tests/tracking/number_test.ts): the Paket form goes first.
  const usps20 = corpus.find((form) => form.id === "usps_20")!;
  for (const number of ["00340434292135100162", "00340434161094042557"]) {
    ok(formAccepts(usps20, number));
    deepEqual(detected(number), valid("dhl", number));
  }
});

Deno.test("an 18-digit SSCC is checked over all 17 digits, as GS1 defines it", () => {
  // Deliberate: the corpus sums only the 15 digits after the first two; the two agree while
  // those are 00 (all its examples) and differ here.
  const number = "015012345678900009";
  deepEqual(detected(number), valid("fedex", number));
  const sscc = corpus.find((form) => form.id === "fedex_ground_sscc_18")!;
  ok(!formAccepts(sscc, number));
  deepEqual(detected("015012345678900008"), { valid: false });
});

// ---- Generated numbers, compared with the corpus's own definitions ----

/** A seeded generator (mulberry32), so a failure reproduces; the seed is in the message. */
const SEED = 20240611;
const { random, digits, letters, alphanumerics, pick } = seeded(SEED);

/**
 * Shapes of every format, with the position of the check digit (default: last); `unchecked`
 * formats have no check digit, so every variant may be valid.
 */
const TEMPLATES: { name: string; make: () => string; checkAt?: number; unchecked?: true }[] = [
  { name: "ups 1Z", make: () => "1Z" + alphanumerics(15) + digits(1) },
  { name: "ups waybill", make: () => pick([..."AHJKTV"]) + digits(10) },
  { name: "dhl express 10", make: () => digits(10) },
  { name: "dhl express 11", make: () => digits(11) },
  { name: "fedex 12", make: () => digits(12) },
  { name: "dhl ecommerce 14", make: () => digits(14), unchecked: true },
  { name: "fedex ground 15", make: () => digits(15) },
  { name: "sscc 18", make: () => "00" + digits(16) },
  { name: "20 digits", make: () => digits(20) },
  { name: "20 digits 91", make: () => "91" + digits(18) },
  { name: "dhl paket sscc", make: () => "00340434" + digits(12) },
  { name: "usps 91 22", make: () => "91" + digits(20) },
  { name: "usps 92-95 22", make: () => pick(["92", "93", "94", "95"]) + digits(20) },
  { name: "usps 92 mid9 22", make: () => "92" + digits(3) + "9" + digits(16) },
  { name: "usps 93 mid6 26", make: () => "93" + digits(3) + "1" + digits(20) },
  { name: "usps 92-95 26", make: () => pick(["92", "93", "94", "95"]) + digits(24) },
  { name: "usps 94 30", make: () => "94" + digits(3) + pick(["9", "1"]) + digits(24) },
  { name: "fedex 96 22", make: () => "96" + digits(20) },
  { name: "420 zip5 20", make: () => "420" + digits(5) + digits(20) },
  { name: "420 zip5 91", make: () => "420" + digits(5) + "91" + digits(20) },
  { name: "420 zip9 20", make: () => "420" + digits(9) + digits(20) },
  { name: "420 zip5 92 22", make: () => "420" + digits(5) + "92" + digits(3) + "9" + digits(16) },
  { name: "420 zip9 94 22", make: () => "420" + digits(9) + "94" + digits(20) },
  { name: "420 zip5 93 26", make: () => "420" + digits(5) + "93" + digits(3) + "0" + digits(20) },
  { name: "fedex 34", make: () => digits(34) },
  { name: "fedex gsn 34", make: () => "96" + pick(["22", "32"]) + digits(30) },
  { name: "fedex astra 32", make: () => "3" + digits(31), checkAt: 27 },
  { name: "s10", make: () => letters(2) + digits(9) + pick(["US", "GB", "DE", "XX"]), checkAt: 10 },
  {
    name: "s10 dhl prefix",
    make: () => pick(["CN", "LX", "RX", "GM"]) + digits(9) + "US",
    checkAt: 10,
    unchecked: true, // a wrong S10 check digit leaves a DHL eCommerce number
  },
  {
    name: "dhl piece id",
    make: () => "J" + letters(2 + random(2)) + digits(9 + random(2)),
    unchecked: true,
  },
  { name: "dhl ecommerce", make: () => pick(["GM", "LX", "IN"]) + alphanumerics(10 + random(30)) },
];

Deno.test("generated numbers: every check digit value, against the corpus's definitions", () => {
  for (const template of TEMPLATES) {
    let accepted = 0;
    let refused = 0;
    for (let body = 0; body < 60; body++) {
      const base = template.make();
      const at = template.checkAt ?? base.length - 1;
      for (const check of "0123456789") {
        const number = base.slice(0, at) + check + base.slice(at + 1);
        const want = expected(number);
        deepEqual(detected(number), want, `${template.name}: ${number} (seed ${SEED})`);
        if (want.valid) accepted++;
        else refused++;
        if (!want.valid) continue;
        // The same number as a person might type it: lower case, grouped by spaces and dashes.
        const typed = number.toLowerCase().replace(/(.{4})/g, "$1 ").replace(/ (.)(.)/, "-$1$2");
        deepEqual(detected(typed), want, `${template.name}: "${typed}"`);
        // One digit of the body changed: checked again against the corpus's definitions.
        const i = random(at);
        const flipped = number.slice(0, i) + ((Number(number[i]) + 1 + random(9)) % 10) +
          number.slice(i + 1);
        if (/[0-9]/.test(number[i])) deepEqual(detected(flipped), expected(flipped), flipped);
      }
    }
    // Each shape produces valid numbers (and invalid ones where there is a check digit), so
    // none of these comparisons is vacuous.
    ok(accepted > 0, `${template.name}: no valid number`);
    ok(refused > 0 || template.unchecked, `${template.name}: no invalid number`);
  }
});

Deno.test("a serial with its computed check digit is valid; any other digit is not", () => {
  // Formats with one rule for their shape; the check digit comes from the corpus's definition.
  const shapes: [string, () => string][] = [
    ["ups", () => "1Z" + alphanumerics(15)],
    ["ups_waybill", () => pick([..."AHJKTV"]) + digits(9)],
    ["fedex_12", () => digits(11)],
    ["fedex_ground", () => digits(14)],
    ["fedex_ground_96", () => "96" + digits(19)],
    ["fedex_34", () => pick([..."12345678"]) + digits(32)],
    ["usps_impb_n", () => "94" + digits(19)],
    ["usps_legacy", () => "91" + digits(19)],
    ["dhl_express", () => digits(9)],
  ];
  for (const [id, serial] of shapes) {
    const form = corpus.find((candidate) => candidate.id === id)!;
    for (let n = 0; n < 50; n++) {
      const body = serial();
      const variants = [..."0123456789"].map((check) => body + check);
      const right = variants.filter((number) => formAccepts(form, number));
      equal(right.length, 1, `${id}: ${body}`);
      for (const number of variants) {
        const want = right.includes(number) ? verdict(form, number) : { valid: false };
        deepEqual(detected(number), want, `${id}: ${number} (seed ${SEED})`);
      }
    }
  }
});

Deno.test("one wrong digit is always caught by the GS1 mod 10 checks", () => {
  const ground = corpus.find((form) => form.id === "fedex_ground")!;
  const impb = corpus.find((form) => form.id === "usps_impb_n")!;
  for (let n = 0; n < 200; n++) {
    const [form, body] = n % 2 === 0 ? [ground, digits(14)] : [impb, "94" + digits(19)];
    const number = [..."0123456789"].map((check) => body + check).find((candidate) =>
      formAccepts(form, candidate)
    )!;
    ok(detectCarrier(number).valid, number);
    // Past the application identifier, so the flipped number keeps its format.
    const i = 2 + random(number.length - 2);
    const flipped = number.slice(0, i) + ((Number(number[i]) + 1 + random(9)) % 10) +
      number.slice(i + 1);
    deepEqual(detectCarrier(flipped), { valid: false }, `${number} -> ${flipped}`);
  }
});
