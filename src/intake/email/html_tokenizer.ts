/**
 * htmlparser2's tokenizer with its two hottest loops shortened: in text and in quoted attribute
 * values it calls a state method per character, and only `<`, `&` or the closing quote do
 * anything there. This tokenizer jumps straight to the next such character, so the callbacks,
 * and what the Parser builds from them, stay the same (tests/intake/email/html_tokenizer_test.ts
 * compares the two callback by callback). It overrides internals of htmlparser2 12.0.0 (pinned
 * exactly in deno.json); when they are not there the stock tokenizer is used.
 */
import { Tokenizer } from "htmlparser2";

/** The tokenizer members this relies on (private in htmlparser2's typings). */
interface Internals {
  buffer: string;
  index: number;
  offset: number;
  stateText(c: number): void;
  stateInAttributeValueDoubleQuotes(c: number): void;
  stateInAttributeValueSingleQuotes(c: number): void;
}

const LT = 0x3c;
const AMP = 0x26;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;

type Args = ConstructorParameters<typeof Tokenizer>;
const Base = Tokenizer as unknown as new (...args: Args) => Internals & {
  write(chunk: string): void;
};

/** Cache slots of `next`, one per character looked for. */
const SLOTS: Record<number, number> = { [LT]: 0, [AMP]: 1, [DOUBLE_QUOTE]: 2, [SINGLE_QUOTE]: 3 };

class SkippingTokenizer extends Base {
  /** Per character: the last search's start and the index it found (the buffer's length if none). */
  private readonly searchedFrom = [0, 0, 0, 0];
  private readonly foundAt = [-1, -1, -1, -1];

  override write(chunk: string): void {
    this.foundAt.fill(-1);
    super.write(chunk);
  }

  /**
   * The buffer index of the next `char` from `from`. A search is reused while `from` stays
   * within what it covered, so text of many `&` before a far `<` is still read once.
   */
  private next(char: number, from: number): number {
    const slot = SLOTS[char];
    if (from < this.searchedFrom[slot] || from > this.foundAt[slot]) {
      const i = this.buffer.indexOf(String.fromCharCode(char), from);
      this.searchedFrom[slot] = from;
      this.foundAt[slot] = i < 0 ? this.buffer.length : i;
    }
    return this.foundAt[slot];
  }

  /**
   * Moves to just before the next `a` or `b` (the tokenizer's loop then steps onto it): the
   * characters skipped are ones the current state ignores.
   */
  private skipTo(a: number, b: number): void {
    const from = this.index - this.offset + 1;
    this.index = this.offset + Math.min(this.next(a, from), this.next(b, from)) - 1;
  }

  override stateText(c: number): void {
    if (c === LT || c === AMP) super.stateText(c);
    else this.skipTo(LT, AMP);
  }

  override stateInAttributeValueDoubleQuotes(c: number): void {
    if (c === DOUBLE_QUOTE || c === AMP) super.stateInAttributeValueDoubleQuotes(c);
    else this.skipTo(DOUBLE_QUOTE, AMP);
  }

  override stateInAttributeValueSingleQuotes(c: number): void {
    if (c === SINGLE_QUOTE || c === AMP) super.stateInAttributeValueSingleQuotes(c);
    else this.skipTo(SINGLE_QUOTE, AMP);
  }
}

function hasInternals(): boolean {
  const proto = Tokenizer.prototype as unknown as Partial<Internals>;
  if (
    typeof proto.stateText !== "function" ||
    typeof proto.stateInAttributeValueDoubleQuotes !== "function" ||
    typeof proto.stateInAttributeValueSingleQuotes !== "function"
  ) return false;
  const probe = new Base({}, {} as Args[1]);
  return typeof probe.buffer === "string" && typeof probe.index === "number" &&
    typeof probe.offset === "number";
}

/**
 * The tokenizer for `new Parser(..., { Tokenizer })`. Only for HTML mode with entity decoding
 * (the skipped characters are the ones that mode ignores).
 */
export const FastTokenizer: typeof Tokenizer = hasInternals()
  ? SkippingTokenizer as unknown as typeof Tokenizer
  : Tokenizer;
