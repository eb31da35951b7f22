/**
 * Finds tracking numbers in free text (an email body, a chat message), for intake. Pure; one
 * pass over the text, and bounded work whatever the text: at most `MAX_SCAN_ATTEMPTS` candidate
 * strings are classified and at most `maxResults` numbers returned.
 */
import type { CarrierKey } from "./carriers.ts";
import {
  MAX_TRACKING_LENGTH,
  MIN_TRACKING_LENGTH,
  NUMERIC_LENGTHS,
  TRACKING_FORMS,
  type TrackingForm,
  trackingForm,
} from "./number.ts";

export type TrackingCandidate = { carrier: CarrierKey; trackingNumber: string; form: TrackingForm };

/** Numbers returned by default: far more than one message names in practice. */
export const MAX_SCAN_RESULTS = 20;
/**
 * Candidate strings classified per text. A start position costs at most 13 attempts when all
 * digits (the lengths numbers have) and 32 with letters (lengths 10 to 41), so this covers
 * hundreds to thousands of number-like chunks; words in lower case cost none.
 */
export const MAX_SCAN_ATTEMPTS = 20_000;
/** Separator characters allowed between two groups of one number (`1Z 5R8 939`, `0414-4176`). */
const MAX_SEPARATOR_RUN = 3;

/** A run of ASCII letters and digits. */
type Chunk = { text: string; digitsOnly: boolean; lettersOnly: boolean };

function isAlphanumeric(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** Space, tab, no-break space and dashes join the groups of one number; nothing else does. */
function isSeparator(code: number): boolean {
  return code === 32 || code === 9 || code === 0xa0 || code === 45 ||
    (code >= 0x2010 && code <= 0x2015) || code === 0x2212;
}

/**
 * Tracking numbers in `text`, in order of first appearance, each once (by normalised number).
 * A number may be split by up to three spaces or dashes between its groups (as printed on
 * labels); from each position the longest candidate that detection accepts wins, and scanning
 * goes on after it. Two rules keep words out of numbers:
 * - a word of letters only that is not all upper-case (`in`, `Tracking`) ends a group;
 * - a number of a form without a check digit (DHL eCommerce, DHL piece ids) must not contain a
 *   chunk of letters only, so `GM2951173225174494 DHL` does not swallow `DHL` and
 *   `IN 1234567890` is not an `IN...` number.
 */
export function scanTrackingNumbers(
  text: string,
  maxResults = MAX_SCAN_RESULTS,
): TrackingCandidate[] {
  const scan = new Scan(maxResults);
  let i = 0;
  while (i < text.length && !scan.done()) {
    const start = i;
    let digits = 0;
    let lower = 0;
    for (; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code >= 48 && code <= 57) digits++;
      else if (code >= 97 && code <= 122) lower++;
      else if (code < 65 || code > 90) break;
    }
    const length = i - start;
    if (length > 0) {
      // Longer than any number, or a lower-case word: nothing to build on.
      if (length > MAX_TRACKING_LENGTH || (digits === 0 && lower > 0)) scan.endGroup();
      else {
        scan.push({
          text: text.slice(start, i),
          digitsOnly: digits === length,
          lettersOnly: digits === 0,
        });
      }
    }
    const separatorStart = i;
    while (i < text.length && isSeparator(text.charCodeAt(i))) i++;
    const joined = i > separatorStart && i - separatorStart <= MAX_SEPARATOR_RUN &&
      i < text.length && isAlphanumeric(text.charCodeAt(i));
    if (!joined) {
      scan.endGroup();
      if (i === start) i++; // neither letter, digit nor separator: skip it
    }
  }
  scan.endGroup();
  return scan.results;
}

/** The chunks of the current group not yet tried as a start, and what was found. */
class Scan {
  readonly results: TrackingCandidate[] = [];
  private readonly seen = new Set<string>();
  private attempts = 0;
  private group: Chunk[] = [];
  private head = 0;
  private pending = 0; // characters in group[head..]

  constructor(private readonly maxResults: number) {}

  done(): boolean {
    return this.results.length >= this.maxResults || this.attempts >= MAX_SCAN_ATTEMPTS;
  }

  /**
   * Adds a chunk, then tries the first pending chunk as a start once the chunks from it are
   * longer than any number (later chunks could not change its outcome), so a group never holds
   * more than ~42 pending chunks however long it runs.
   */
  push(chunk: Chunk): void {
    this.group.push(chunk);
    this.pending += chunk.text.length;
    while (this.pending > MAX_TRACKING_LENGTH && !this.done()) this.drop(this.tryStart());
    if (this.head > 64) {
      this.group = this.group.slice(this.head);
      this.head = 0;
    }
  }

  /** Tries every pending start of a group that has ended. */
  endGroup(): void {
    if (this.group.length === 0) return;
    while (this.head < this.group.length && !this.done()) this.drop(this.tryStart());
    this.group = [];
    this.head = 0;
    this.pending = 0;
  }

  private drop(chunks: number): void {
    for (let k = 0; k < chunks; k++) this.pending -= this.group[this.head++].text.length;
  }

  /** Tries the windows from the first pending chunk, longest first; returns chunks to drop. */
  private tryStart(): number {
    const windows: { text: string; chunks: number; words: boolean }[] = [];
    let text = "";
    let digitsOnly = true;
    let words = false;
    for (let end = this.head; end < this.group.length; end++) {
      const chunk = this.group[end];
      text += chunk.text;
      if (text.length > MAX_TRACKING_LENGTH) break;
      digitsOnly &&= chunk.digitsOnly;
      words ||= chunk.lettersOnly;
      if (text.length >= MIN_TRACKING_LENGTH && (!digitsOnly || NUMERIC_LENGTHS.has(text.length))) {
        windows.push({ text, chunks: end - this.head + 1, words });
      }
    }
    for (let w = windows.length - 1; w >= 0 && !this.done(); w--) {
      this.attempts++;
      const number = windows[w].text.toUpperCase();
      const form = trackingForm(number);
      if (form === null || (windows[w].words && !TRACKING_FORMS[form].checkDigit)) continue;
      this.add({ carrier: TRACKING_FORMS[form].carrier, trackingNumber: number, form });
      return windows[w].chunks;
    }
    return 1;
  }

  private add(candidate: TrackingCandidate): void {
    if (this.seen.has(candidate.trackingNumber)) return;
    this.seen.add(candidate.trackingNumber);
    this.results.push(candidate);
  }
}
