/**
 * The tracking-number corpus (jkeen/tracking_number_data, MIT; see SOURCE_COMMIT.txt and LICENSE
 * beside it), read at run time from `../shared` beside the repository: it is studied material,
 * not part of the repository. Also an independent reading of it for the tests: each format's
 * own regex and checksum definition, interpreted generically, as a second opinion to compare
 * `detectCarrier` with.
 */
import type { CarrierKey } from "../src/domain/tracking/carriers.ts";

export const CORPUS_DIR = new URL("../../shared/corpus/tracking-numbers/", import.meta.url);
export const CORPUS_FILES = ["ups", "fedex", "usps", "dhl", "s10"] as const;

type Lookup = { matches?: string; matches_regex?: string };
type Checksum = {
  name: string;
  evens_multiplier?: number;
  odds_multiplier?: number;
  reverse?: boolean;
  weightings?: number[];
  modulo1?: number;
  modulo2?: number;
};
type RawForm = {
  name: string;
  id?: string;
  regex: string | string[];
  validation: {
    checksum?: Checksum;
    serial_number_format?: { prepend_if: { matches_regex: string; content: string } };
    additional?: { exists: string[] };
  };
  additional?: { name: string; regex_group_name: string; lookup: Lookup[] }[];
  test_numbers: { valid: string[]; invalid: string[] };
};

export type CorpusForm = {
  file: string;
  id: string;
  regex: RegExp;
  validation: RawForm["validation"];
  additional: NonNullable<RawForm["additional"]>;
  valid: string[];
  invalid: string[];
};

export async function loadCorpus(): Promise<CorpusForm[]> {
  const forms: CorpusForm[] = [];
  for (const file of CORPUS_FILES) {
    const text = await Deno.readTextFile(new URL(`${file}.json`, CORPUS_DIR));
    const { tracking_numbers } = JSON.parse(text) as { tracking_numbers: RawForm[] };
    for (const form of tracking_numbers) {
      const source = Array.isArray(form.regex) ? form.regex.join("") : form.regex;
      forms.push({
        file,
        // The UPS waybill entry has no id; its name stands in.
        id: form.id ?? form.name.toLowerCase().replaceAll(" ", "_"),
        regex: new RegExp(`^(?:${source})$`),
        validation: form.validation,
        additional: form.additional ?? [],
        valid: form.test_numbers.valid,
        invalid: form.test_numbers.invalid,
      });
    }
  }
  return forms;
}

/** A digit's value; a letter's is (ASCII - 3) mod 10, as the corpus's mod10 defines. */
function value(char: string): number {
  return /[0-9]/.test(char) ? Number(char) : (char.charCodeAt(0) - 3) % 10;
}

/** The corpus's checksum definitions, read literally from their parameters. */
export function checksumPasses(checksum: Checksum, serial: string, check: string): boolean {
  const digits = [...serial];
  let expected: number;
  if (checksum.name === "mod10") {
    const ordered = checksum.reverse ? digits.reverse() : digits;
    const total = ordered.reduce((sum, char, i) => {
      const multiplier = i % 2 === 0 ? checksum.evens_multiplier : checksum.odds_multiplier;
      return sum + value(char) * (multiplier ?? 1);
    }, 0);
    expected = total % 10 === 0 ? 0 : 10 - total % 10;
  } else if (checksum.name === "sum_product_with_weightings_and_modulo") {
    const total = digits.reduce((sum, char, i) => sum + Number(char) * checksum.weightings![i], 0);
    expected = total % checksum.modulo1! % checksum.modulo2!;
  } else if (checksum.name === "mod7") {
    expected = Number(serial) % 7;
  } else if (checksum.name === "s10") {
    const total = digits.reduce((sum, char, i) => sum + Number(char) * checksum.weightings![i], 0);
    const remainder = total % 11;
    expected = remainder === 1 ? 0 : remainder === 0 ? 5 : 11 - remainder;
  } else {
    throw new Error(`unknown checksum ${checksum.name}`);
  }
  return String(expected) === check;
}

function lookupHas(lookup: Lookup[], text: string): boolean {
  return lookup.some((entry) =>
    entry.matches === text ||
    (entry.matches_regex !== undefined && new RegExp(`^(?:${entry.matches_regex})$`).test(text))
  );
}

/** Whether `number` (upper-case, no spaces) is of this corpus format, checksum included. */
export function formAccepts(form: CorpusForm, number: string): boolean {
  const match = form.regex.exec(number);
  if (match === null) return false;
  const groups = match.groups ?? {};
  for (const name of form.validation.additional?.exists ?? []) {
    const field = form.additional.find((entry) => entry.name === name);
    const text = field === undefined ? undefined : groups[field.regex_group_name];
    if (field === undefined || text === undefined || !lookupHas(field.lookup, text)) return false;
  }
  const checksum = form.validation.checksum;
  if (checksum === undefined) return true;
  let serial = groups.SerialNumber.replace(/\s/g, "");
  const prepend = form.validation.serial_number_format?.prepend_if;
  if (prepend !== undefined && new RegExp(prepend.matches_regex).test(serial)) {
    serial = prepend.content + serial;
  }
  return checksumPasses(checksum, serial, groups.CheckDigit.replace(/\s/g, ""));
}

/**
 * The carrier a corpus format belongs to among ours, "other" for a format of another carrier
 * (an S10 item of a post other than USPS), judged per number because S10 depends on its
 * country letters.
 */
export function formCarrier(form: CorpusForm, number: string): CarrierKey | "other" {
  if (form.file === "s10") return number.endsWith("US") ? "usps" : "other";
  // Deliberate: the corpus files DHL piece ids (JJD..., JVGL...) under DHL Express; they have no
  // check digit and also appear on DHL Paket labels, so detection calls them `dhl`.
  if (form.id === "dhl_express_piece_id") return "dhl";
  if (form.id === "dhl_express") return "dhl-express";
  return form.file as CarrierKey;
}

/** Upper-cased without spaces (which the corpus's `\s*` regexes skip) and dashes. */
export function compact(number: string): string {
  return number.replace(/[\s-]/g, "").toUpperCase();
}
