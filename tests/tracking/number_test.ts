import { deepEqual, equal, ok } from "node:assert/strict";
import { CARRIER_KEYS, CARRIERS } from "../../src/domain/tracking/carriers.ts";
import {
  asWrittenIn,
  detectCarrier,
  MAX_RAW_LENGTH,
  NUMERIC_LENGTHS,
  TRACKING_FORMS,
  type TrackingForm,
} from "../../src/domain/tracking/number.ts";
import {
  detected,
  disagreements,
  type FixtureFile,
  undocumented,
  valid,
} from "../../scripts/tracking_fixtures.ts";

/**
 * The project's own numbers of every form (tests/fixtures/tracking/numbers.json), check digits
 * computed by scripts/tracking_fixtures.ts from the documented algorithms. Detection against
 * the studied corpus in ../shared is `deno task accuracy` (scripts/tracking_corpus_check.ts).
 */
const fixtures: FixtureFile = JSON.parse(
  await Deno.readTextFile(new URL("../fixtures/tracking/numbers.json", import.meta.url)),
);

Deno.test("the fixtures hold numbers of every form, and a wrong check digit for each checked one", () => {
  // The generator's own algorithms reproduce the documentation's worked examples.
  deepEqual(undocumented(), []);
  const forms = Object.keys(TRACKING_FORMS) as TrackingForm[];
  deepEqual([...new Set(fixtures.valid.map((f) => f.form))].sort(), [...forms].sort());
  const checked = forms.filter((form) => TRACKING_FORMS[form].checkDigit);
  deepEqual([...new Set(fixtures.wrongCheckDigit.map((f) => f.form))].sort(), checked.sort());
});

Deno.test("every fixture number is detected as its form and carrier; a wrong check digit is not", () => {
  for (const f of fixtures.valid) {
    deepEqual(detectCarrier(f.number), {
      valid: true,
      carrier: TRACKING_FORMS[f.form].carrier,
      trackingNumber: f.number,
      form: f.form,
    }, `${f.shape}: ${f.number}`);
    // As a person might type it: lower case, grouped by spaces and dashes.
    const typed = f.number.toLowerCase().replace(/(.{4})/g, "$1 ").replace(/ (.)(.)/, "-$1$2");
    equal(detectCarrier(typed).valid, true, `${f.shape}: "${typed}"`);
  }
  for (const f of fixtures.wrongCheckDigit) {
    const got = detectCarrier(f.number);
    ok(!got.valid || got.form !== f.form, `${f.shape}: ${f.number} taken as ${f.form}`);
  }
  // The same comparison the generator makes before it writes the file.
  deepEqual(disagreements(fixtures), []);
});

Deno.test("the research's DHL Paket SSCCs are DHL, not USPS 20-digit numbers", () => {
  for (const number of ["00340434292135100162", "00340434161094042557"]) {
    deepEqual(detectCarrier(number), {
      valid: true,
      carrier: "dhl",
      trackingNumber: number,
      form: "dhl-paket-sscc",
    });
  }
  // With a wrong check digit it is no SSCC, and not USPS either (the 91-prefixed check fails).
  deepEqual(detectCarrier("00340434292135100163"), { valid: false });
});

Deno.test("an 18-digit SSCC is checked over all 17 digits, as GS1 defines it", () => {
  // Deliberate: the corpus sums only the 15 digits after the first two; the two agree while
  // those are 00 (all its examples) and differ here.
  deepEqual(detected("015012345678900009"), valid("fedex", "015012345678900009"));
  deepEqual(detected("015012345678900008"), { valid: false });
});

Deno.test("one wrong digit is always caught by the GS1 mod 10 checks", () => {
  // Routed USPS numbers are left out: their ZIP is not checked.
  const gs1 = fixtures.valid.filter((f) =>
    ["fedex-ground-15", "usps-impb"].includes(f.form) && !f.number.startsWith("420")
  );
  ok(gs1.length > 0);
  for (const { number, form } of gs1) {
    // Every position past the application identifier, every other digit.
    for (let i = 2; i < number.length; i++) {
      for (let step = 1; step <= 9; step++) {
        const flipped = number.slice(0, i) + ((Number(number[i]) + step) % 10) +
          number.slice(i + 1);
        const got = detectCarrier(flipped);
        ok(!got.valid || got.form !== form, `${number} -> ${flipped}`);
      }
    }
  }
});

Deno.test("spaces, dashes and case do not matter; other characters do", () => {
  const want = valid("ups", "1Z5R89390357567127");
  for (
    const raw of ["1z5r89390357567127", " 1Z 5R8 939 03 5756 712 7 ", "1Z-5R8-939-035-756-7127"]
  ) {
    deepEqual(detected(raw), want, raw);
  }
  deepEqual(detected("9400-1112-0108-0805-4830-16"), valid("usps", "9400111201080805483016"));
  deepEqual(detected("\t4201028200009261290113185417468510\n"), {
    valid: true,
    carrier: "usps",
    trackingNumber: "4201028200009261290113185417468510",
  });
  deepEqual(detected("eA 123 456 785 us"), valid("usps", "EA123456785US"));
  for (const raw of ["1Z5R8939035756712.7", "1Z5R89390357567127!", "１Z5R89390357567127", ""]) {
    deepEqual(detectCarrier(raw), { valid: false }, raw);
  }
  // A non-ASCII letter that upper-cases to ASCII letters is still not a tracking character.
  deepEqual(detectCarrier("1Z5R89390357567127ß"), { valid: false });
  // Raw input is bounded before any work: a valid number padded past the limit is refused.
  deepEqual(detectCarrier(" ".repeat(MAX_RAW_LENGTH) + "1Z5R89390357567127"), { valid: false });
});
Deno.test("the request's S10 example is not valid; the right check digit is", () => {
  deepEqual(detectCarrier("EA123456789US"), { valid: false });
  deepEqual(detected("EA123456785US"), valid("usps", "EA123456785US"));
  // Other posts' items are not one of our carriers, even under a DHL eCommerce prefix.
  deepEqual(detectCarrier("RB123456785GB"), { valid: false });
  deepEqual(detectCarrier("CN123456785DE"), { valid: false });
  // A wrong S10 check digit leaves the DHL eCommerce reading (no check digit of its own).
  deepEqual(detected("CN123456789US"), valid("dhl", "CN123456789US"));
});
Deno.test("all-digit numbers of any other length are never valid", () => {
  for (let length = 1; length <= 45; length++) {
    if (NUMERIC_LENGTHS.has(length)) continue;
    for (const digit of "0123456789") {
      deepEqual(detectCarrier(digit.repeat(length)), { valid: false }, `${length} x ${digit}`);
    }
  }
});
Deno.test("carriers have display names", () => {
  deepEqual(CARRIERS.map((carrier) => carrier.key), [...CARRIER_KEYS]);
  deepEqual(CARRIERS.map((carrier) => carrier.name), [
    "UPS",
    "FedEx",
    "USPS",
    "DHL eCommerce / Paket",
    "DHL Express",
  ]);
  deepEqual(
    [...new Set(Object.values(TRACKING_FORMS).map((form) => form.carrier))].sort(),
    [...CARRIER_KEYS].sort(),
  );
});

Deno.test("asWrittenIn: a number read from a message keeps the hyphens the message writes", () => {
  equal(asWrittenIn("お問い合わせ伝票番号：4982-1503-6675", "498215036675"), "4982-1503-6675");
  // Spaces around a hyphen are left out; a lower-case number comes back upper-cased.
  equal(asWrittenIn("Sendung: 4982 - 1503 - 6675", "498215036675"), "4982-1503-6675");
  equal(asWrittenIn("Tracking 1z 999 aa1 01", "1Z999AA101"), "1Z999AA101");
  // The link's compact copy first, then the text's: the hyphenated one is the written form.
  equal(
    asWrittenIn("https://t.example/?n=498215036675\nNumber: 4982-1503-6675", "498215036675"),
    "4982-1503-6675",
  );
  // Part of a longer run, written nowhere, or with a doubled hyphen: the number as read.
  equal(asWrittenIn("ref 1-4982-1503-6675", "498215036675"), "498215036675");
  equal(asWrittenIn("no number here", "498215036675"), "498215036675");
  equal(asWrittenIn("4982--1503-6675", "498215036675"), "498215036675");
});
