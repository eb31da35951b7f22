import { deepStrictEqual as eq, equal, ok } from "node:assert/strict";
import type { Reading } from "../../src/domain/intake/reading.ts";
import { listEvents } from "../../src/events/emit.ts";
import { type IncomingMessage, receiveMessage } from "../../src/intake/receive.ts";
import { getRawMessage, listIntakeLog } from "../../src/store/intake/log.ts";
import { countOrders } from "../../src/store/orders/list.ts";
import { getOrder } from "../../src/store/orders/orders.ts";
import { createUser } from "../../src/store/account/users.ts";
import { EventBus } from "../../src/events/bus.ts";
import { QUEUE } from "../../src/events/transport.ts";

/** Commits with events go through a bus, as in the app. */
const events = new EventBus(QUEUE);

const billing = { billingEnabled: false, freePlanMonthlyOrders: 100 };
const now = Date.parse("2025-05-01T09:00:00.000Z");
const bytes = (s: string) => new TextEncoder().encode(s);
const RAW = "From: shop@example.com\r\nSubject: Order 1001\r\n\r\nThanks";

async function workspace() {
  const kv = await Deno.openKv(":memory:");
  const created = await createUser(kv, { email: "intake@example.com" });
  if (!created.ok) throw new Error("no user");
  return { kv, userId: created.user.id, [Symbol.dispose]: () => kv.close() };
}

const order = (fields: Record<string, unknown>, signals = {}): Reading => ({
  kind: "order",
  fields: { itemSummary: "Trail shoes", ...fields },
  signals,
});

function mail(userId: string, reading: Reading, extra: Partial<IncomingMessage> = {}) {
  return {
    userId,
    channel: "email" as const,
    sourceId: "email_1",
    identity: "<m1@shop.example>",
    raw: bytes(RAW),
    facts: { from: "shop@example.com", subject: "Order 1001", messageId: "<m1@shop.example>" },
    reading,
    ...extra,
  };
}

/** Every key under the workspace's raw-message prefix (chunks and meta). */
async function rawKeys(kv: Deno.Kv, userId: string) {
  return (await Array.fromAsync(kv.list({ prefix: ["ws", userId, "intake_raw"] }))).length;
}

Deno.test("a message that reads as an order is logged with the order, its raw copy and provenance", async () => {
  using ws = await workspace();
  const first = await receiveMessage(
    ws.kv,
    mail(ws.userId, order({ orderNumber: "1001", total: "$80.00" })),
    {
      now,
      billing,
      events,
    },
  );
  equal(first.outcome, "created");
  ok(first.outcome === "created");
  const inbox = await listIntakeLog(ws.kv, ws.userId, { channel: "email", limit: 10 });
  equal(inbox.total, 1);
  const [entry] = inbox.items;
  eq(
    { ...entry, id: undefined },
    {
      id: undefined,
      channel: "email",
      sourceId: "email_1",
      from: "shop@example.com",
      subject: "Order 1001",
      messageId: "<m1@shop.example>",
      receivedAt: "2025-05-01T09:00:00.000Z",
      outcome: "created",
      orderId: first.orderId,
      // The total is in the workspace currency (USD for a UTC account): it is the cost too.
      setFields: ["costCents", "itemSummary", "orderNumber", "receivedAt", "status", "total"],
      said: "ordered",
      itemSummary: "Trail shoes",
      rawSize: RAW.length,
    },
  );
  equal(new TextDecoder().decode((await getRawMessage(ws.kv, ws.userId, first.logId))!), RAW);

  // A shipping message merges; the order's history lists both, newest first, with what each set.
  const second = await receiveMessage(
    ws.kv,
    mail(
      ws.userId,
      order({
        orderNumber: "#1001",
        trackingNumber: "1Z999AA10123456784",
        receivedAt: "2025-04-30T22:15:00.000Z",
      }),
      {
        identity: "<m2@shop.example>",
      },
    ),
    { now: now + 60_000, billing, events },
  );
  equal(second.outcome, "merged");
  const history = await listIntakeLog(ws.kv, ws.userId, { orderId: first.orderId, limit: 10 });
  // The message's own date is kept beside when it was read.
  eq(history.items.map((e) => e.sentAt), ["2025-04-30T22:15:00.000Z", undefined]);
  eq(history.items.map((e) => [e.outcome, e.said, e.setFields]), [
    // The merge moved the order to shipped: its shippedAt comes from this message too. A
    // tracking number says the message is a shipping one.
    ["merged", "shipped", ["shippedAt", "status", "trackingNumber"]],
    ["created", "ordered", [
      "costCents",
      "itemSummary",
      "orderNumber",
      "receivedAt",
      "status",
      "total",
    ]],
  ]);
  equal((await getOrder(ws.kv, ws.userId, first.orderId))?.status, "shipped");
});

Deno.test("a repeated message is a duplicate: logged, pointing at the first, nothing else stored", async () => {
  using ws = await workspace();
  const first = await receiveMessage(ws.kv, mail(ws.userId, order({})), { now, billing, events });
  ok(first.outcome === "created");
  const rawBefore = await rawKeys(ws.kv, ws.userId);
  const again = await receiveMessage(ws.kv, mail(ws.userId, order({})), {
    now: now + 1,
    billing,
    events,
  });
  ok(again.outcome === "duplicate");
  equal(again.duplicateOf, first.logId);
  equal(await countOrders(ws.kv, ws.userId), 1);
  equal(await rawKeys(ws.kv, ws.userId), rawBefore);
  const inbox = await listIntakeLog(ws.kv, ws.userId, { channel: "email", limit: 10 });
  eq(inbox.items.map((e) => e.outcome), ["duplicate", "created"]);
  equal(inbox.items[0].rawSize, undefined);
});

Deno.test("racing copies of one message make one order and duplicates, with one raw copy", async () => {
  using ws = await workspace();
  const big = bytes("x".repeat(150_000));
  const results = await Promise.all(
    Array.from(
      { length: 20 },
      (_, i) =>
        receiveMessage(ws.kv, mail(ws.userId, order({ orderNumber: `R-${i}` }), { raw: big }), {
          now: now + i,
          billing,
          events,
        }),
    ),
  );
  equal(results.filter((r) => r.outcome === "created").length, 1);
  equal(results.filter((r) => r.outcome === "duplicate").length, 19);
  equal(await countOrders(ws.kv, ws.userId), 1);
  const created = results.find((r) => r.outcome === "created")!;
  ok(created.outcome === "created");
  equal((await getRawMessage(ws.kv, ws.userId, created.logId))?.byteLength, 150_000);
  // One blob: its meta and three chunks; the losers' chunks were removed.
  equal(await rawKeys(ws.kv, ws.userId), 4);
});

Deno.test("a message that is not an order is logged, never an order; its repeat is a duplicate", async () => {
  using ws = await workspace();
  const reading: Reading = { kind: "unreadable", why: "no order number, item or tracking number" };
  const first = await receiveMessage(ws.kv, mail(ws.userId, reading), { now, billing, events });
  equal(first.outcome, "unreadable");
  const blocked = await receiveMessage(
    ws.kv,
    mail(ws.userId, { kind: "blocked", sender: "x@spam.example" }, { identity: "<b@x>" }),
    { now, billing, events },
  );
  equal(blocked.outcome, "blocked");
  const again = await receiveMessage(ws.kv, mail(ws.userId, reading), { now, billing, events });
  equal(again.outcome, "duplicate");
  equal(await countOrders(ws.kv, ws.userId), 0);
  const inbox = await listIntakeLog(ws.kv, ws.userId, { channel: "email", limit: 10 });
  eq(inbox.items.map((e) => [e.outcome, e.why]), [
    ["duplicate", "no order number, item or tracking number"],
    ["blocked", undefined],
    ["unreadable", "no order number, item or tracking number"],
  ]);
});

Deno.test("the plan cap rejects a new order; the message is logged but may come again", async () => {
  using ws = await workspace();
  const capped = { billingEnabled: true, freePlanMonthlyOrders: 1 };
  const chat = (i: number): IncomingMessage => ({
    userId: ws.userId,
    channel: "chat",
    sourceId: "bot_1",
    facts: {},
    reading: order({ itemSummary: `Post ${i}` }),
  });
  equal(
    (await receiveMessage(ws.kv, chat(1), { now, billing: capped, events })).outcome,
    "created",
  );
  const rejected = await receiveMessage(ws.kv, chat(2), { now, billing: capped, events });
  ok(rejected.outcome === "rejected");
  eq(rejected.limit, { reason: "plan_limit_reached", cap: 1, used: 1 });
  // Chat posts are never deduplicated: the same post again is another message.
  equal((await receiveMessage(ws.kv, chat(2), { now, billing, events })).outcome, "created");
  const log = await listIntakeLog(ws.kv, ws.userId, { sourceId: "bot_1", limit: 10 });
  eq(log.items.map((e) => [e.outcome, e.itemSummary]), [
    ["created", "Post 2"],
    ["rejected", "Post 2"],
    ["created", "Post 1"],
  ]);
});

Deno.test("a quiet message (rebuild) fires no events; a missing account stores nothing", async () => {
  using ws = await workspace();
  const quiet = await receiveMessage(ws.kv, mail(ws.userId, order({})), {
    now,
    billing,
    events,
    quiet: true,
  });
  equal(quiet.outcome, "created");
  eq(await listEvents(ws.kv, ws.userId), []);
  const gone = await receiveMessage(ws.kv, mail("usr_gone", order({})), { now, billing, events });
  eq(gone, { outcome: "account_gone" });
  equal((await Array.fromAsync(ws.kv.list({ prefix: ["ws", "usr_gone"] }))).length, 0);
});
