/**
 * Writes tests/fixtures/tracking/numbers.json: tracking numbers of every form detection knows
 * (`TRACKING_FORMS`), with check digits computed here from the algorithms as documented
 * (jkeen/tracking_number_data's CHECKSUM_ALGORITHMS.md and weightings, UPU S10, GS1, as
 * summarised in the research notes on carriers), not by the project's own check-digit code;
 * and, for each form with a check digit, the same numbers with every wrong check digit. That
 * code serves only as a cross-check: the script stops when detection disagrees.
 *
 * `deno run --allow-write scripts/tracking_fixtures.ts` (seeded: the output is the same on every
 * run). The tests read only the file written (tests/tracking/number_test.ts).
 */
import { detectCarrier, TRACKING_FORMS, type TrackingForm } from "../src/domain/tracking/number.ts";
import type { CarrierKey } from "../src/domain/tracking/carriers.ts";
import { seeded } from "./seeded.ts";

export const FIXTURES = new URL("../tests/fixtures/tracking/numbers.json", import.meta.url);
/** Numbers generated per shape. */
const PER_SHAPE = 8;

// ---- The documented check-digit algorithms ----

/** A character's value in the documented mod 10: a digit, or a letter's (ASCII - 3) mod 10. */
const valueOf = (c: string) => /[0-9]/.test(c) ? Number(c) : (c.charCodeAt(0) - 3) % 10;

/**
 * mod10 of CHECKSUM_ALGORITHMS.md: index i from 0 over the serial (reversed first when
 * `reverse`), times `evens` when i is even and `odds` when odd; check = (10 - sum % 10) % 10.
 */
function mod10(serial: string, evens: number, odds: number, reverse = false): string {
  const chars = reverse ? [...serial].reverse() : [...serial];
  const sum = chars.reduce((s, c, i) => s + valueOf(c) * (i % 2 === 0 ? evens : odds), 0);
  return String((10 - sum % 10) % 10);
}

/** sum_product_with_weightings_and_modulo: sum of digit x weight left to right, % m1 % m2. */
function weighted(serial: string, weights: number[], m1: number, m2: number): string {
  const sum = [...serial].reduce((s, c, i) => s + Number(c) * weights[i], 0);
  return String(sum % m1 % m2);
}

/** The weights `pattern` repeated to `n` places, left to right. */
const repeat = (pattern: number[], n: number) =>
  Array.from({ length: n }, (_, i) => pattern[i % 3]);

/** GS1 (SSCC, IMpb): from the digit left of the check going left, every other digit x3. */
const gs1 = (serial: string) => mod10(serial, 3, 1, true);
/** UPS: odd positions (0-based) x2, letters by (ASCII - 3) mod 10. */
const ups = (serial: string) => mod10(serial, 1, 2);
/** FedEx Ground 15 / 96: odd positions x3, left to right. */
const fedexGround = (serial: string) => mod10(serial, 1, 3);
/** FedEx Express 12 and ASTRA: weights 3,1,7 over the 11 serial digits, % 11 % 10. */
const fedex317 = (serial: string) => weighted(serial, repeat([3, 1, 7], 11), 11, 10);
/** FedEx 34-digit barcodes: weights 1,7,3 over the 13 serial digits, % 11 % 10. */
const fedex173 = (serial: string) => weighted(serial, repeat([1, 7, 3], 13), 11, 10);
/** DHL Express: the serial mod 7. */
const mod7 = (serial: string) => String(BigInt(serial) % 7n);

/** UPU S10: weights 8,6,4,2,3,5,9,7; r = sum % 11; 11 - r, but r 0 gives 5 and r 1 gives 0. */
function s10(serial: string): string {
  const r = Number(weighted(serial, [8, 6, 4, 2, 3, 5, 9, 7], 11, 11));
  return String(r === 0 ? 5 : r === 1 ? 0 : 11 - r);
}

/**
 * The worked examples of the documentation, as [algorithm, serial, its check digit]: the
 * algorithms above must reproduce each before anything is written.
 */
const DOCUMENTED: [string, (serial: string) => string, string, string][] = [
  ["UPS 1Z5R89390357567127", ups, "5R8939035756712", "7"],
  ["UPS waybill K1506235620", ups, "150623562", "0"],
  ["FedEx Express 986578788855", fedex317, "98657878885", "5"],
  ["FedEx Ground 041441760228964", fedexGround, "04144176022896", "4"],
  ["FedEx Ground 96 9611020987654312345672", fedexGround, "98765431234567", "2"],
  ["SSCC 000123450000000027", gs1, "00012345000000002", "7"],
  ["USPS IMpb 9400111206206406260787", gs1, "940011120620640626078", "7"],
  ["USPS 20 03071790000523483741", gs1, "0307179000052348374", "1"],
  ["S10 EA123456785US", s10, "12345678", "5"],
  ["DHL Express 3318810025", mod7, "331881002", "5"],
  ["DHL Paket 00340434292135100162", gs1, "0034043429213510016", "2"],
  // Its serial is the 13 digits before the last (positions 21 to 33).
  ["FedEx 34 1001921334250001000300779017972697", fedex173, "0077901797269", "7"],
];

/** The documented examples the algorithms here do not reproduce (none, or the script stops). */
export function undocumented(): string[] {
  return DOCUMENTED.filter(([, algorithm, serial, check]) => algorithm(serial) !== check)
    .map(([name]) => name);
}

// ---- Shapes ----

/** A seeded generator (mulberry32), so the file is the same on every run. */
const { random, digits, letters, alphanumerics, pick } = seeded(20261126);

/**
 * A shape: `make` returns the number around its check digit (`before` + check + `after`) and
 * the check digit the algorithm computes; forms without a check digit return none.
 */
interface Shape {
  name: string;
  form: TrackingForm;
  make: () => { before: string; check?: string; after?: string };
}

/** An IMpb body (no routing): AI, service type, 9-digit mailer id (starts 9) or 6-digit one. */
function impb(length: 22 | 26 | 30): string {
  const ai = length === 30 ? "94" : pick(["92", "93", "94", "95"]);
  const long = ai === "92" || (ai !== "93" && (length === 30 || random(2) === 0));
  const mailer = long ? "9" + digits(8) : pick(["1", "2", "3", "4", "5", "6", "7", "8"]) +
    digits(5);
  const head = ai + digits(3) + mailer;
  const serial = head + digits(length - 1 - head.length);
  return serial + gs1(serial);
}

const SHAPES: Shape[] = [
  {
    name: "UPS 1Z: 6 shipper + 2 service + 7 package characters",
    form: "ups-1z",
    make: () => {
      const serial = alphanumerics(6) + pick(["01", "02", "03", "12", "13", "YW"]) +
        digits(7);
      return { before: "1Z" + serial, check: ups(serial) };
    },
  },
  {
    name: "UPS waybill: a letter, 9 digits",
    form: "ups-waybill",
    make: () => {
      const serial = digits(9);
      return { before: pick([..."AHJKTV"]) + serial, check: ups(serial) };
    },
  },
  {
    name: "FedEx Express 12",
    form: "fedex-express-12",
    make: () => {
      const serial = digits(11);
      return { before: serial, check: fedex317(serial) };
    },
  },
  {
    name: "FedEx Ground 15",
    form: "fedex-ground-15",
    make: () => {
      const serial = digits(14);
      return { before: serial, check: fedexGround(serial) };
    },
  },
  {
    name: "SSCC-18 (GS1 over 17 digits)",
    form: "fedex-sscc-18",
    make: () => {
      const serial = pick(["00", "01", "10"]) + digits(15);
      return { before: serial, check: gs1(serial) };
    },
  },
  {
    name: "FedEx Ground 96: 96 + 2 + 3 + 7 shipper + 7 package (checked over the last 14)",
    form: "fedex-ground-96",
    make: () => {
      const head = "96" + digits(5);
      const serial = digits(14);
      return { before: head + serial, check: fedexGround(serial) };
    },
  },
  {
    name: "FedEx ASTRA 32: the 12-digit Express number at positions 17 to 28",
    form: "fedex-astra-32",
    make: () => {
      const serial = digits(11);
      return { before: "3" + digits(15) + serial, check: fedex317(serial), after: digits(4) };
    },
  },
  {
    name: "FedEx 34-digit barcode: [1-8] + 19 + 13 serial digits",
    form: "fedex-barcode-34",
    make: () => {
      const serial = digits(13);
      return { before: pick([..."12356789"]) + digits(19) + serial, check: fedex173(serial) };
    },
  },
  {
    name: "FedEx Ground GSN 34: 96 + 18 + 13 serial digits",
    form: "fedex-barcode-34",
    make: () => {
      const serial = digits(13);
      return { before: "96" + pick(["22", "32"]) + digits(16) + serial, check: fedex173(serial) };
    },
  },
  ...([22, 26, 30] as const).map((length): Shape => ({
    name: `USPS IMpb ${length}`,
    form: "usps-impb",
    make: () => {
      const n = impb(length);
      return { before: n.slice(0, -1), check: n.slice(-1) };
    },
  })),
  ...([[5, 22], [9, 22], [5, 26]] as const).map(([zip, length]): Shape => ({
    name: `USPS IMpb ${length} routed by 420 + ZIP${zip}`,
    form: "usps-impb",
    make: () => {
      const n = "420" + digits(zip) + impb(length);
      return { before: n.slice(0, -1), check: n.slice(-1) };
    },
  })),
  {
    name: "USPS 20 (GS1)",
    form: "usps-20",
    make: () => {
      const serial = pick(["03", "23", "71"]) + digits(17);
      return { before: serial, check: gs1(serial) };
    },
  },
  {
    name: "USPS legacy 91 (22 digits)",
    form: "usps-legacy-91",
    make: () => {
      const serial = "91" + digits(19);
      return { before: serial, check: gs1(serial) };
    },
  },
  {
    name: "USPS legacy without its 91 (20 digits, checked with 91 in front)",
    form: "usps-legacy-91",
    make: () => {
      const serial = pick(["03", "23", "71"]) + digits(17);
      return { before: serial, check: gs1("91" + serial) };
    },
  },
  {
    name: "USPS legacy 20 routed by 420 + ZIP5",
    form: "usps-legacy-91",
    make: () => {
      const serial = pick(["03", "23", "71"]) + digits(17);
      return { before: "420" + digits(5) + serial, check: gs1("91" + serial) };
    },
  },
  {
    name: "UPU S10 of USPS",
    form: "usps-s10",
    make: () => {
      const serial = digits(8);
      return {
        before: pick(["EA", "EC", "LZ", "RA", "CP"]) + serial,
        check: s10(serial),
        after: "US",
      };
    },
  },
  {
    name: "DHL Paket SSCC: 00340434 + 11 + GS1",
    form: "dhl-paket-sscc",
    make: () => {
      const serial = "00340434" + digits(11);
      return { before: serial, check: gs1(serial) };
    },
  },
  {
    name: "DHL piece id: J + 2 or 3 letters + 9 or 10 digits",
    form: "dhl-piece-id",
    make: () => ({ before: "J" + letters(2 + random(2)) + digits(9 + random(2)) }),
  },
  {
    name: "DHL eCommerce: prefix + a digit + 9 to 38 characters, ending in a digit",
    form: "dhl-ecommerce",
    make: () => ({
      before: pick(["GM", "LX", "RX", "UV", "CN", "SG", "TH", "IN", "HK", "MY"]) + digits(1) +
        alphanumerics(8 + random(30)) + digits(1),
    }),
  },
  {
    name: "DHL eCommerce 14 digits",
    form: "dhl-ecommerce-14",
    make: () => ({ before: digits(14) }),
  },
  ...([9, 10] as const).map((length): Shape => ({
    name: `DHL Express waybill: ${length} digits + mod 7`,
    form: "dhl-express-waybill",
    make: () => {
      const serial = pick([..."123456789"]) + digits(length - 1);
      return { before: serial, check: mod7(serial) };
    },
  })),
];

/** A detection without its `form` (which the corpus in ../shared does not name). */
export type Verdict =
  | { valid: true; carrier: CarrierKey; trackingNumber: string }
  | { valid: false };

export function valid(carrier: CarrierKey, trackingNumber: string): Verdict {
  return { valid: true, carrier, trackingNumber };
}

/** The detection of `raw` without its `form`. */
export function detected(raw: string): Verdict {
  const result = detectCarrier(raw);
  return result.valid
    ? { valid: true, carrier: result.carrier, trackingNumber: result.trackingNumber }
    : result;
}

export interface Fixture {
  shape: string;
  number: string;
  form: TrackingForm;
}

export interface FixtureFile {
  note: string;
  /** Numbers of their form. */
  valid: Fixture[];
  /** The same numbers with another check digit: never of that form. */
  wrongCheckDigit: Fixture[];
}

function generate(): FixtureFile {
  const valid: Fixture[] = [];
  const wrongCheckDigit: Fixture[] = [];
  for (const shape of SHAPES) {
    for (let n = 0; n < PER_SHAPE; n++) {
      const { before, check, after = "" } = shape.make();
      valid.push({ shape: shape.name, number: before + (check ?? "") + after, form: shape.form });
      if (check === undefined) continue;
      // One wrong digit per number, a different one each time.
      const wrong = String((Number(check) + 1 + random(9)) % 10);
      wrongCheckDigit.push({ shape: shape.name, number: before + wrong + after, form: shape.form });
    }
  }
  return {
    note: "Generated by scripts/tracking_fixtures.ts; do not edit by hand.",
    valid,
    wrongCheckDigit,
  };
}

/** Where detection disagrees with the generated file (the project's code as a cross-check). */
export function disagreements(file: FixtureFile): string[] {
  const out: string[] = [];
  for (const f of file.valid) {
    const got = detectCarrier(f.number);
    const carrier = TRACKING_FORMS[f.form].carrier;
    if (!got.valid || got.form !== f.form || got.carrier !== carrier) {
      out.push(`${f.shape}: ${f.number} detected as ${JSON.stringify(got)}`);
    }
  }
  for (const f of file.wrongCheckDigit) {
    const got = detectCarrier(f.number);
    if (got.valid && got.form === f.form) out.push(`${f.shape}: ${f.number} (wrong check) taken`);
  }
  return out;
}

if (import.meta.main) {
  const file = generate();
  const covered = new Set(file.valid.map((f) => f.form));
  const missing = Object.keys(TRACKING_FORMS).filter((form) => !covered.has(form as TrackingForm));
  const wrong = [
    ...undocumented().map((name) => `not reproduced: ${name}`),
    ...disagreements(file),
  ];
  if (missing.length || wrong.length) {
    console.error([`forms without numbers: ${missing.join(", ")}`, ...wrong].join("\n"));
    Deno.exit(1);
  }
  await Deno.mkdir(new URL(".", FIXTURES), { recursive: true });
  await Deno.writeTextFile(FIXTURES, JSON.stringify(file, null, 2) + "\n");
  console.log(
    `wrote ${FIXTURES.pathname}: ${file.valid.length} valid, ` +
      `${file.wrongCheckDigit.length} with a wrong check digit, ${covered.size} forms`,
  );
}
