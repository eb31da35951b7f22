/**
 * Accuracy on a labeled folder (the `expected.json` format of ../shared/corpus/labeled/README.md):
 * every message is posted through the service's own path, in the file's order, on a fresh
 * in-memory service: emails to `POST /api/email/import`, chat posts (JSON or multipart) to a
 * bot's intake URL. After each order message the order it created or merged into is read back
 * (`GET /api/orders/:id`) and compared with the labeled fields; the status is the order's status
 * right after the message.
 *
 * Comparison (README): case-insensitive after NFKC, whitespace runs as one space, ends trimmed;
 * `orderNumber` ignores a leading `#`; `trackingNumber` ignores spaces; `itemSummary` is right when
 * it contains the label or is a shortened form of it of at least 8 characters; an array lists the
 * accepted values.
 */
import { join } from "node:path";
import { createApp } from "../src/app.ts";
import { testConfig } from "../src/config.ts";
import { createDeps, drainDeps } from "../src/deps.ts";
import { createLogger } from "../src/lib/log.ts";
import { issueSession } from "../src/store/account/credentials.ts";
import { createUser } from "../src/store/account/users.ts";

export interface Labeled {
  file: string;
  kind: "email" | "chat";
  expect: "order" | "ignore";
  sequence?: string;
  fields: Record<string, unknown>;
}

/** What one message did and how its fields scored. */
export interface Outcome {
  entry: Labeled;
  status: number;
  orderId?: string;
  /** Per labeled field: the value read (undefined when absent) and whether it is right. */
  fields: { field: string; expected: unknown; actual: unknown; ok: boolean }[];
  /** The order's status once the whole folder was replayed (`gone` when it was merged away). */
  finalStatus?: unknown;
}

const norm = (s: string) => s.normalize("NFKC").replace(/\s+/gu, " ").trim().toLowerCase();

/** Whether `actual` is an accepted reading of the label `expected` for `field`. */
export function matches(field: string, expected: unknown, actual: unknown): boolean {
  if (Array.isArray(expected)) return expected.some((e) => matches(field, e, actual));
  if (actual === undefined || actual === null) return false;
  if (typeof expected === "number") return Number(actual) === expected;
  let e = norm(String(expected));
  let a = norm(String(actual));
  if (field === "orderNumber") [e, a] = [e.replace(/^#\s*/, ""), a.replace(/^#\s*/, "")];
  if (field === "trackingNumber") [e, a] = [e.replace(/ /g, ""), a.replace(/ /g, "")];
  if (field === "itemSummary") return a.includes(e) || (a.length >= 8 && e.includes(a));
  return a === e;
}

export interface Service {
  call(method: string, path: string, init?: { body?: BodyInit; type?: string }): Promise<
    { status: number; body: Record<string, unknown> }
  >;
  botPath(): Promise<string>;
  /** Waits for the work requests started in the background (learning from a correction). */
  settle(): Promise<void>;
  close(): Promise<void>;
}

/** A fresh service on an in-memory KV with one account, as the tests build it. */
export async function service(): Promise<Service> {
  const kv = await Deno.openKv(":memory:");
  const config = testConfig({ LOG_LEVEL: "error" });
  const deps = createDeps({
    kv,
    config,
    persistence: "memory",
    log: createLogger(config.logLevel, () => {}),
  });
  const app = createApp(deps);
  const created = await createUser(kv, { email: "accuracy@example.com" });
  if (!created.ok) throw new Error("account not created");
  const token = await issueSession(kv, created.user.id);
  let posts = 0;
  let bot = "";
  const call: Service["call"] = async (method, path, init = {}) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (init.type) headers["content-type"] = init.type;
    // A client address per request: the chat intake limits posts per IP and per bot URL.
    const info = {
      remoteAddr: {
        transport: "tcp",
        hostname: `10.0.${posts >> 8 & 255}.${posts & 255}`,
        port: 1,
      },
    };
    const res = await app.request(path, { method, headers, body: init.body }, info);
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : {} };
  };
  return {
    call,
    async botPath() {
      // A new bot every 50 posts stays under the 60 per minute per bot URL.
      if (posts++ % 50 === 0) {
        const res = await call("POST", "/api/bots", {
          body: JSON.stringify({ name: `Bot ${posts}` }),
          type: "application/json",
        });
        bot = new URL((res.body.bot as { url: string }).url).pathname;
      }
      return bot;
    },
    settle: () => deps.background.drain(),
    async close() {
      await drainDeps(deps);
      kv.close();
    },
  };
}

/** Posts one labeled file; answers the HTTP status and the order id it created or merged into. */
async function post(svc: Service, dir: string, entry: Labeled) {
  const bytes = await Deno.readFile(join(dir, entry.file));
  if (entry.kind === "email") {
    // JSON carries text: a file that is not UTF-8 (an 8-bit windows-1252 mail) is sent as the
    // characters its bytes stand for, as a client reading the file would, not as U+FFFD.
    let raw: string;
    try {
      raw = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      raw = new TextDecoder("windows-1252").decode(bytes);
    }
    return await svc.call("POST", "/api/email/import", {
      body: JSON.stringify({ raw }),
      type: "application/json",
    });
  }
  const path = await svc.botPath();
  if (entry.file.endsWith(".multipart")) {
    const text = new TextDecoder("latin1").decode(bytes);
    const boundary = text.slice(0, text.search(/\r?\n/)).replace(/^--/, "");
    return await svc.call("POST", path, {
      body: bytes,
      type: `multipart/form-data; boundary=${boundary}`,
    });
  }
  return await svc.call("POST", path, { body: bytes, type: "application/json" });
}

/** Replays the folder in order and scores every message. */
export async function replay(dir: string): Promise<Outcome[]> {
  const entries: Labeled[] = JSON.parse(await Deno.readTextFile(join(dir, "expected.json")));
  const svc = await service();
  const out: Outcome[] = [];
  try {
    for (const entry of entries) {
      const res = await post(svc, dir, entry);
      const orderId = typeof res.body.orderId === "string" ? res.body.orderId : undefined;
      let order: Record<string, unknown> = {};
      if (orderId) {
        const got = await svc.call("GET", `/api/orders/${orderId}`);
        order = (got.body.order ?? {}) as Record<string, unknown>;
      }
      const fields = entry.expect === "order"
        ? Object.entries(entry.fields).map(([field, expected]) => ({
          field,
          expected,
          actual: order[field],
          ok: orderId !== undefined && matches(field, expected, order[field]),
        }))
        : [];
      out.push({ entry, status: res.status, orderId, fields });
    }
    // The final status of each order: read again after the whole replay.
    for (const o of out) {
      if (!o.orderId) continue;
      const got = await svc.call("GET", `/api/orders/${o.orderId}`);
      o.finalStatus = got.status === 200
        ? (got.body.order as Record<string, unknown>).status
        : "gone";
    }
  } finally {
    await svc.close();
  }
  return out;
}

const FIELD_ORDER = [
  "orderNumber",
  "itemSummary",
  "store",
  "total",
  "price",
  "quantity",
  "size",
  "trackingNumber",
  "carrier",
  "status",
  "estimatedDelivery",
];
const pct = (a: number, b: number) => b === 0 ? "-" : `${(100 * a / b).toFixed(1)}%`;

/** The Markdown report: per-field tables (email, chat, all), orders, false orders, sequences. */
export function report(dir: string, outcomes: Outcome[], verbose: boolean): string {
  const lines = [`### ${dir}`, ""];
  const kinds = ["email", "chat"] as const;
  const fieldsOf = (list: Outcome[]) => {
    const names = new Set(list.flatMap((o) => o.fields.map((f) => f.field)));
    return [
      ...FIELD_ORDER.filter((f) => names.has(f)),
      ...[...names].filter((f) => !FIELD_ORDER.includes(f)),
    ];
  };
  const header = ["| Field", ...kinds.map((k) => ` ${k}`), " all |"].join(" |");
  lines.push(header, `|---|${kinds.map(() => "---:|").join("")}---:|`);
  const tally = (list: Outcome[], field?: string) => {
    const fs = list.flatMap((o) => o.fields).filter((f) => !field || f.field === field);
    return { right: fs.filter((f) => f.ok).length, total: fs.length };
  };
  const cell = (t: { right: number; total: number }) =>
    t.total === 0 ? "-" : `${t.right}/${t.total} ${pct(t.right, t.total)}`;
  for (const field of fieldsOf(outcomes)) {
    const row = kinds.map((k) => cell(tally(outcomes.filter((o) => o.entry.kind === k), field)));
    lines.push(`| ${field} | ${row.join(" | ")} | ${cell(tally(outcomes, field))} |`);
  }
  const all = kinds.map((k) => `**${cell(tally(outcomes.filter((o) => o.entry.kind === k)))}**`);
  lines.push(`| **all fields** | ${all.join(" | ")} | **${cell(tally(outcomes))}** |`, "");

  const orders = outcomes.filter((o) => o.entry.expect === "order");
  for (const k of [...kinds, undefined]) {
    const list = orders.filter((o) => !k || o.entry.kind === k);
    const full = list.filter((o) => o.orderId && o.fields.every((f) => f.ok)).length;
    const missed = list.filter((o) => !o.orderId).length;
    lines.push(
      `- ${
        k ?? "all"
      } order messages with every labeled field right: **${full} of ${list.length}** ` +
        `(${pct(full, list.length)}); no order made or merged: ${missed}`,
    );
  }
  const ignored = outcomes.filter((o) => o.entry.expect === "ignore");
  const falseOrders = ignored.filter((o) => o.orderId);
  lines.push(
    `- Orders from non-order messages: **${falseOrders.length} of ${ignored.length}**` +
      falseOrders.map((o) => ` ${o.entry.file}`).join(","),
  );
  const sequences = new Map<string, Outcome[]>();
  for (const o of orders) {
    if (o.entry.sequence) {
      sequences.set(o.entry.sequence, [...(sequences.get(o.entry.sequence) ?? []), o]);
    }
  }
  const badSeq: string[] = [];
  for (const [name, list] of sequences) {
    const ids = new Set(list.map((o) => o.orderId));
    const last = list[list.length - 1];
    const final = last.finalStatus;
    const one = ids.size === 1 && !ids.has(undefined);
    if (!one || !matches("status", last.entry.fields.status, final)) {
      const made = [...ids].filter(Boolean).length;
      const none = ids.has(undefined) ? ", a message made none" : "";
      badSeq.push(`${name} (${made} orders${none}, final ${String(final)})`);
    }
  }
  lines.push(
    `- Merge sequences ending as one order with the right final status: **${
      sequences.size - badSeq.length
    } of ${sequences.size}**${badSeq.length ? `; not: ${badSeq.join(", ")}` : ""}`,
  );
  if (verbose) {
    lines.push("", "Wrong or missing:");
    for (const o of outcomes) {
      const wrong = o.fields.filter((f) => !f.ok);
      if (o.entry.expect === "ignore" && o.orderId) {
        lines.push(`- ${o.entry.file}: ORDER FROM NON-ORDER`);
      }
      if (wrong.length === 0) continue;
      lines.push(`- ${o.entry.file}${o.orderId ? "" : ` (no order, ${o.status})`}`);
      for (const f of wrong) {
        lines.push(
          `  - ${f.field}: expected ${JSON.stringify(f.expected)}, got ${JSON.stringify(f.actual)}`,
        );
      }
    }
  }
  return lines.join("\n");
}
