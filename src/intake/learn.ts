/**
 * Learning from corrections, after the PATCH of an email order has been committed (CONTRACT
 * "Learning from corrections"): the order's newest stored message is read again, each corrected
 * value that stands in its real text (not in quoted history) gets an expression anchored on what
 * stands around it (domain/intake/learning.ts), checked on the same message, and the sender's learned
 * template takes it. Runs in the background, one at a time, at most `MAX_WAITING` waiting: a
 * PATCH never waits for it and never fails because of it.
 */
import type { IntakeDeps } from "./deps.ts";
import {
  findReadSpans,
  findSpans,
  isLearnable,
  LEARNABLE_FIELDS,
  type LearnableField,
  learnExpression,
  type TextLine,
} from "../domain/intake/learning.ts";
import type { Order } from "../domain/orders/order.ts";
import { newId } from "../lib/ids.ts";
import { getRawMessage, listIntakeLog } from "../store/intake/log.ts";
import { saveLearned } from "../store/intake/learned_templates.ts";
import { getOrder } from "../store/orders/orders.ts";
import { compileTemplate, MAX_MATCH_TEXT } from "./email/custom.ts";
import { customValues } from "./email/custom_fields.ts";
import { dayString, headerDay, parseDay } from "./email/dates.ts";
import { isForwardSeparator } from "./email/forward.ts";
import type { Letter } from "./email/letter.ts";
import { letterOf } from "./email/letter.ts";
import { parseMime } from "./email/mime.ts";
import { innermost } from "./email/read.ts";
import { type EmailReader, inProcessReader } from "./email/readers.ts";
import { customTemplatesOf } from "./mail.ts";

/** Learnings waiting at most; past it a correction is not learned from (and it is logged). */
const MAX_WAITING = 32;
/** A reply's own text ends where the quoted message begins. */
const WROTE =
  /^(?:on\b.{0,200}\bwrote:|am\b.{0,200}\bschrieb\b.{0,80}:|le\b.{0,200}\ba écrit\s*:)$/i;

export type LearnOutcome =
  | { learned: LearnableField[]; templateId: string }
  | { learned: []; why: string };

/** The lines custom templates read (as `letterText`), each marked quoted when it is history. */
export function textLines(letter: Letter): TextLine[] {
  const lines: TextLine[] = [{ text: letter.subject, quoted: false }];
  let length = letter.subject.length;
  let history = false;
  for (const b of letter.blocks) {
    if (length > MAX_MATCH_TEXT) break;
    history ||= b.quote > 0 || isForwardSeparator(b.text) || WROTE.test(b.text.trim());
    lines.push({ text: b.text, ...(b.cell ? { cell: b.cell } : {}), quoted: history });
    length += b.text.length + 1;
  }
  return lines;
}

function same(field: LearnableField, expected: string, got: unknown): boolean {
  if (got === undefined) return false;
  const norm = (v: unknown) => String(v).trim().replace(/\s+/g, " ").toLowerCase();
  if (field === "trackingNumber") {
    return norm(got).replace(/\s/g, "") === norm(expected).replace(/\s/g, "");
  }
  return norm(got) === norm(expected);
}

/** The order's values other than `field`: text that can never be an anchor. */
function variableValues(order: Order): string[] {
  return LEARNABLE_FIELDS.map((f) => order[f]).filter((v) => v !== undefined).map(String);
}

/**
 * Learns the corrected `fields` of an order from its newest stored message. Never throws for
 * a message it cannot learn from: the outcome says why nothing was learned.
 */
export async function learnFromCorrection(
  kv: Deno.Kv,
  userId: string,
  orderId: string,
  fields: LearnableField[],
  now: number,
  reader: EmailReader = inProcessReader,
): Promise<LearnOutcome> {
  const order = await getOrder(kv, userId, orderId);
  if (!order) return { learned: [], why: "order gone" };
  const entry = (await listIntakeLog(kv, userId, { orderId, limit: 1 })).items[0];
  if (entry?.channel !== "email" || !entry.rawSize) return { learned: [], why: "not from email" };
  const raw = await getRawMessage(kv, userId, entry.id);
  const parsed = raw && await parseMime(raw);
  if (!raw || !parsed || !parsed.ok) return { learned: [], why: "message unreadable" };
  const letter = await innermost(letterOf(parsed.message), parsed.message.attached);
  const sender = letter.from?.address?.toLowerCase();
  if (!sender) return { learned: [], why: "no sender" };

  const templates = await customTemplatesOf(kv, userId);
  const reading = (await reader.read(raw, now, templates)).reading;
  const read: Record<string, unknown> = reading.kind === "order" ? reading.fields : {};
  const lines = textLines(letter);
  const anchorDay = headerDay(letter.date) ?? undefined;
  const variable = variableValues(order);
  const learned: Partial<Record<LearnableField, string>> = {};
  for (const field of fields) {
    const value = order[field];
    if (value === undefined || value === "") continue;
    const expected = String(value);
    // Already read this way: nothing to learn.
    if (same(field, expected, read[field])) continue;
    const spans = field === "estimatedDelivery"
      ? findReadSpans(lines, (text) => {
        const day = parseDay(text, { anchor: anchorDay });
        return !!day && dayString(day) === expected;
      }, (word) => parseDay(word, { anchor: anchorDay }) !== null)
      : findSpans(lines, expected);
    const found = learnExpression(lines, field, expected, spans, variable, (expression) => {
      const probe = compileTemplate({
        id: "learn",
        match: { from: sender },
        fields: { [field]: expression },
      });
      if ("error" in probe) return false;
      return same(field, expected, customValues(probe, letter)[field]);
    });
    if (found) learned[field] = found.expression;
  }
  const names = Object.keys(learned) as LearnableField[];
  if (names.length === 0) return { learned: [], why: "no value found in the message" };
  const at = new Date(now).toISOString();
  const template = await saveLearned(kv, userId, {
    sender,
    fields: learned,
    learned: { orderId, field: names.at(-1)!, at },
    newId: newId("tmpl", now),
  });
  if (!template) return { learned: [], why: "account gone" };
  return { learned: names, templateId: template.id };
}

let waiting = 0;
let chain: Promise<unknown> = Promise.resolve();

/**
 * After a committed PATCH: learns in the background from the intake-read fields it set (a
 * cleared field teaches nothing). Returns at once.
 */
export function learnAfterEdit(
  deps: IntakeDeps,
  userId: string,
  orderId: string,
  patch: Record<string, unknown>,
): void {
  const fields = Object.entries(patch)
    .filter(([k, v]) => isLearnable(k) && v !== undefined && v !== null && v !== "")
    .map(([k]) => k as LearnableField);
  if (fields.length === 0) return;
  if (waiting >= MAX_WAITING) {
    deps.log.warn("learning skipped: too many corrections waiting", { orderId });
    return;
  }
  waiting++;
  // After a turn of the event loop: the PATCH's answer goes out before any of this work.
  const run = chain.then(() => new Promise((next) => setTimeout(next, 0))).then(() =>
    learnFromCorrection(deps.kv, userId, orderId, fields, deps.now(), deps.emailReader)
  );
  chain = run.catch(() => {});
  deps.background.run("learning from a correction", async () => {
    try {
      await run;
    } finally {
      waiting--;
    }
  });
}
