/**
 * Which custom templates read a message: the newest that matches, as always; and when that one
 * is a learned template (CONTRACT "Learning from corrections") while an older hand-written one
 * matches too, both: the learned fields read over the hand-written template's, so a correction
 * adds to the user's template for that sender instead of silently replacing it.
 */
import { type CompiledTemplate, templateMatches } from "./custom.ts";
import { type CustomValues, customValues } from "./custom_fields.ts";
import type { Letter } from "./letter.ts";

export interface CustomReading {
  /** The template that names the reading and gives its status: the hand-written one if any. */
  template?: CompiledTemplate;
  values?: CustomValues;
  /** The learned template whose expressions read `learnedFields`. */
  learnedId?: string;
  learnedFields: string[];
  /** A hand-written template matched and read this many fields (its proof of an order). */
  handWritten?: { found: number };
}

export function readCustom(
  templates: CompiledTemplate[] | undefined,
  sender: string | undefined,
  subject: string,
  letter: Letter,
): CustomReading {
  let learned: CompiledTemplate | undefined;
  let hand: CompiledTemplate | undefined;
  for (const t of templates ?? []) {
    if (!templateMatches(t, sender, subject)) continue;
    if (!t.source.learned) {
      hand = t;
      break;
    }
    // Only the newest learned template counts, and only when it is newer than a hand-written one.
    learned ??= t;
  }
  if (!learned && !hand) return { learnedFields: [] };
  const handValues = hand ? customValues(hand, letter) : {};
  const learnedValues = learned ? customValues(learned, letter) : {};
  return {
    template: hand ?? learned,
    values: { ...handValues, ...learnedValues },
    ...(learned ? { learnedId: learned.id } : {}),
    learnedFields: Object.keys(learnedValues),
    ...(hand ? { handWritten: { found: Object.keys(handValues).length } } : {}),
  };
}
