/**
 * Accuracy before and after learning from one correction (CONTRACT "Learning from
 * corrections"): the order mails of a folder grouped by real sender; for each sender with more
 * than one, on a fresh service, its first message is imported, the first learnable field the
 * order has wrong is corrected through `PATCH /api/orders/:id` (the labeled value), and the
 * sender's other messages are read with `POST /api/email/preview` before and after. Fields
 * compare as in labeled_accuracy.ts (`matches`).
 */
import { LEARNABLE_FIELDS } from "../src/domain/intake/learning.ts";
import { readEmail } from "../src/intake/email/read.ts";
import { matches, service } from "./labeled_accuracy.ts";

export interface LabeledMail {
  file: string;
  raw: Uint8Array;
  /** The labeled order fields (a list names the accepted values). */
  fields: Record<string, unknown>;
}

export interface SenderResult {
  sender: string;
  corrected?: { field: string; value: unknown };
  learned: boolean;
  before: number;
  after: number;
  scored: number;
}

/** Labeled fields an order carries (the status and sender are not read by a preview). */
const NOT_FIELDS = new Set(["status", "realSender"]);

function scoredFields(fields: Record<string, unknown>): [string, unknown][] {
  return Object.entries(fields).filter(([k]) => !NOT_FIELDS.has(k));
}

/** The value a PATCH sends for a labeled field (the first accepted one). */
function patchValue(field: string, expected: unknown): unknown {
  const value = Array.isArray(expected) ? expected[0] : expected;
  if (field === "quantity") return Number(value);
  return typeof value === "string" && field === "orderNumber" ? value.replace(/^#\s*/, "") : value;
}

async function senderOf(raw: Uint8Array): Promise<string | undefined> {
  return (await readEmail(raw, { now: Date.now() })).realSender;
}

async function scoreRest(
  svc: Awaited<ReturnType<typeof service>>,
  rest: LabeledMail[],
): Promise<number> {
  let right = 0;
  for (const m of rest) {
    const res = await svc.call("POST", "/api/email/preview", {
      body: JSON.stringify({ raw: new TextDecoder().decode(m.raw) }),
      type: "application/json",
    });
    const read = (res.status === 200 ? res.body.fields : {}) as Record<string, unknown>;
    for (const [field, expected] of scoredFields(m.fields)) {
      if (matches(field, expected, read[field])) right++;
    }
  }
  return right;
}

async function learnForSender(sender: string, mails: LabeledMail[]): Promise<SenderResult> {
  const [first, ...rest] = mails;
  const scored = rest.reduce((n, m) => n + scoredFields(m.fields).length, 0);
  const svc = await service();
  try {
    const before = await scoreRest(svc, rest);
    const result: SenderResult = { sender, learned: false, before, after: before, scored };
    const imported = await svc.call("POST", "/api/email/import", {
      body: JSON.stringify({ raw: new TextDecoder().decode(first.raw) }),
      type: "application/json",
    });
    const orderId = imported.body.orderId as string | undefined;
    if (imported.status !== 202 || !orderId) return result;
    const order = (await svc.call("GET", `/api/orders/${orderId}`)).body.order as Record<
      string,
      unknown
    >;
    const wrong = LEARNABLE_FIELDS.find((f) =>
      first.fields[f] !== undefined && !matches(f, first.fields[f], order[f])
    );
    if (!wrong) return result;
    const value = patchValue(wrong, first.fields[wrong]);
    result.corrected = { field: wrong, value };
    const patched = await svc.call("PATCH", `/api/orders/${orderId}`, {
      body: JSON.stringify({ [wrong]: value }),
      type: "application/json",
    });
    if (patched.status !== 200) return result;
    await svc.settle();
    const templates = (await svc.call("GET", "/api/templates/custom")).body.items as {
      learned?: unknown;
    }[];
    result.learned = templates.some((t) => t.learned);
    result.after = await scoreRest(svc, rest);
    return result;
  } finally {
    await svc.close();
  }
}

/** Each sender with more than one order mail, corrected once and scored before and after. */
export async function learningAccuracy(mails: LabeledMail[]): Promise<SenderResult[]> {
  const bySender = new Map<string, LabeledMail[]>();
  for (const m of mails) {
    const sender = await senderOf(m.raw);
    if (!sender) continue;
    bySender.set(sender, [...bySender.get(sender) ?? [], m]);
  }
  const results: SenderResult[] = [];
  for (const [sender, list] of [...bySender].sort(([a], [b]) => a.localeCompare(b))) {
    if (list.length > 1) results.push(await learnForSender(sender, list));
  }
  return results;
}

/** The Markdown of the results: totals, then one line per sender that had a correction. */
export function learningReport(results: SenderResult[], verbose: boolean): string {
  const sum = (f: (r: SenderResult) => number) => results.reduce((n, r) => n + f(r), 0);
  const pct = (a: number, b: number) => b === 0 ? "-" : `${(100 * a / b).toFixed(1)}%`;
  const scored = sum((r) => r.scored);
  const corrected = results.filter((r) => r.corrected);
  const lines = [
    "",
    "#### Learning from one correction",
    "",
    `${results.length} senders with more than one order mail; ${corrected.length} needed a ` +
    `correction of their first message, ${corrected.filter((r) => r.learned).length} taught ` +
    "a learned template.",
    "",
    "| Fields of later mails | Right before learning | Right after learning | Scored |",
    "| --- | ---: | ---: | ---: |",
    `| all senders | ${sum((r) => r.before)} (${pct(sum((r) => r.before), scored)}) | ${
      sum((r) => r.after)
    } (${pct(sum((r) => r.after), scored)}) | ${scored} |`,
  ];
  for (const r of verbose ? results : corrected) {
    lines.push(
      `| ${r.sender}${r.corrected ? `: ${r.corrected.field}` : ""}${
        r.corrected && !r.learned ? " (not learned)" : ""
      } | ${r.before} | ${r.after} | ${r.scored} |`,
    );
  }
  return lines.join("\n");
}
