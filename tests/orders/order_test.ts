import { deepStrictEqual as eq, equal } from "node:assert/strict";
import {
  applyPatch,
  mergeEvents,
  mergeMessage,
  newOrder,
  normaliseOrderNumber,
  type Order,
  type OrderStatus,
  patchEvents,
  reviseFromMessage,
  signalsOf,
  statusAfterSignals,
  statusEvents,
} from "../../src/domain/orders/order.ts";
import { matchesQuery, normaliseQuery, searchText } from "../../src/domain/orders/search_terms.ts";

const T0 = Date.parse("2025-03-01T10:00:00.000Z");
const T1 = T0 + 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

function order(over: Partial<Order> = {}): Order {
  return {
    id: "ord_1",
    status: "ordered",
    itemSummary: "Cable",
    receivedAt: iso(T0),
    userEdited: [],
    source: "email",
    createdAt: iso(T0),
    updatedAt: iso(T0),
    ...over,
  };
}

Deno.test("order numbers match after trimming, ignoring case and one leading #", () => {
  equal(normaliseOrderNumber("  #AB-12 "), "ab-12");
  equal(normaliseOrderNumber("ab-12"), "ab-12");
  equal(normaliseOrderNumber("# ab-12"), "ab-12");
  equal(normaliseOrderNumber("##7"), "#7");
  equal(normaliseOrderNumber("A#1"), "a#1");
});

Deno.test("a new order keeps what the message says and starts as ordered", () => {
  const o = newOrder(
    "ord_x",
    { itemSummary: "Cable", store: "Shop", costCents: 0 },
    {},
    "chat",
    T0,
  );
  eq(o, {
    id: "ord_x",
    status: "ordered",
    itemSummary: "Cable",
    store: "Shop",
    costCents: 0,
    receivedAt: iso(T0),
    userEdited: [],
    source: "chat",
    createdAt: iso(T0),
    updatedAt: iso(T0),
  });
});

Deno.test("a new order's status: explicit status, else signals, a tracking number = shipped", () => {
  const make = (fields: Record<string, unknown>, signals = {}) =>
    newOrder("o", { itemSummary: "x", ...fields }, signals, "manual", T0).status;
  equal(make({}), "ordered");
  equal(make({ trackingNumber: "1Z" }), "shipped");
  equal(make({ trackingNumber: "1Z", status: "ordered" }), "ordered");
  equal(make({ status: "issue" }), "issue");
  equal(make({}, { delivered: true }), "delivered");
  equal(make({ trackingNumber: "1Z" }, { delivered: true }), "delivered");
  equal(make({}, { canceled: true }), "canceled");
  equal(make({}, { issue: true, shipped: true }), "issue");
  equal(make({ receivedAt: "2024-01-01T00:00:00.000Z" }), "ordered");
});

Deno.test("merge fills descriptive fields only when empty", () => {
  const before = order({ store: "Old shop", total: "$5" });
  const { order: after, changed } = mergeMessage(
    before,
    {
      itemSummary: "Other summary",
      store: "New shop",
      total: "$6",
      price: "$3",
      costCents: 300,
      salePriceCents: 900,
      receivedAt: iso(T1),
      orderNumber: "#X",
    },
    {},
    T1,
  );
  equal(changed, true);
  eq(after, {
    ...before,
    price: "$3",
    costCents: 300,
    salePriceCents: 900,
    orderNumber: "#X",
    updatedAt: iso(T1),
  });
});

Deno.test("merge fills a blank item summary (a checkout post that named only a SKU)", () => {
  const blank = order({ itemSummary: "", store: "Foot Locker" });
  const { order: after, changed } = mergeMessage(
    blank,
    { itemSummary: "Air Force 1 '07", store: "Foot Locker US" },
    {},
    T1,
  );
  equal(changed, true);
  eq(after, { ...blank, itemSummary: "Air Force 1 '07", updatedAt: iso(T1) });
  const nothing = mergeMessage(blank, { itemSummary: "" }, {}, T1);
  equal(nothing.changed, false);
  // Re-reading the SKU-only post later does not blank the name another message gave.
  const named = order({ itemSummary: "Air Force 1 '07" });
  const reread = reviseFromMessage(named, { itemSummary: "", price: "$115.00" }, T1);
  eq(reread.order, { ...named, price: "$115.00", updatedAt: iso(T1) });
});

Deno.test("merge refreshes tracking number, carrier and delivery dates", () => {
  const before = order({ status: "shipped", trackingNumber: "OLD", carrier: "ups" });
  const { order: after } = mergeMessage(
    before,
    {
      itemSummary: "Cable",
      trackingNumber: "NEW",
      carrier: "fedex",
      estimatedDelivery: "2025-03-05",
      actualDelivery: "2025-03-04",
    },
    {},
    T1,
  );
  eq(after, {
    ...before,
    trackingNumber: "NEW",
    carrier: "fedex",
    estimatedDelivery: "2025-03-05",
    actualDelivery: "2025-03-04",
    updatedAt: iso(T1),
  });
});

Deno.test("merge never overwrites a field the user edited, status included", () => {
  const before = order({
    trackingNumber: "MINE",
    store: undefined,
    userEdited: ["status", "store", "trackingNumber"],
  });
  const { order: after, changed } = mergeMessage(
    before,
    {
      itemSummary: "Cable",
      trackingNumber: "THEIRS",
      store: "Shop",
    },
    { delivered: true },
    T1,
  );
  equal(changed, false);
  eq(after, before);
});

Deno.test("merge of a message that adds nothing changes nothing", () => {
  const before = order({ store: "Shop", trackingNumber: "1Z", status: "shipped" });
  const result = mergeMessage(
    before,
    { itemSummary: "Cable", store: "Shop", trackingNumber: "1Z" },
    {
      shipped: true,
    },
    T1,
  );
  eq(result, { order: before, changed: false });
});

Deno.test("merge moves the status by the message's signals", () => {
  const move = (from: OrderStatus, fields: Record<string, unknown>, signals = {}) =>
    mergeMessage(order({ status: from }), { itemSummary: "x", ...fields }, signals, T1).order
      .status;
  // The spec's table: shipping signal -> shipped when not yet shipped.
  equal(move("ordered", { trackingNumber: "1Z" }), "shipped");
  equal(move("ordered", {}, { shipped: true }), "shipped");
  equal(move("ordered", { status: "shipped" }), "shipped");
  // Delivery signal -> delivered when not yet delivered.
  equal(move("ordered", {}, { delivered: true }), "delivered");
  equal(move("shipped", {}, { delivered: true }), "delivered");
  equal(move("issue", {}, { delivered: true }), "delivered");
  // Decisions: never backwards, never out of delivered or canceled by a message.
  equal(move("shipped", { status: "ordered" }), "shipped");
  equal(move("delivered", { trackingNumber: "1Z" }), "delivered");
  equal(move("delivered", {}, { canceled: true, issue: true }), "delivered");
  equal(move("canceled", {}, { shipped: true, delivered: true }), "canceled");
  // Into canceled from anything not yet delivered; into issue from ordered or shipped.
  equal(move("ordered", {}, { canceled: true }), "canceled");
  equal(move("shipped", { status: "canceled" }), "canceled");
  equal(move("issue", {}, { canceled: true }), "canceled");
  equal(move("shipped", {}, { issue: true }), "issue");
  equal(move("ordered", { status: "issue" }), "issue");
  // An order with an issue is not un-flagged by another shipping message.
  equal(move("issue", { trackingNumber: "1Z" }), "issue");
  // Several signals: the furthest-reaching one that applies wins.
  equal(move("ordered", { trackingNumber: "1Z" }, { delivered: true }), "delivered");
});

Deno.test("signalsOf reads the status field and tracking numbers as signals", () => {
  eq(signalsOf({ status: "ordered" }), {});
  eq(signalsOf({ status: "delivered" }), { delivered: true });
  eq(signalsOf({ trackingNumber: "1Z" }, { issue: true }), { issue: true, shipped: true });
  equal(statusAfterSignals("ordered", {}), "ordered");
});

Deno.test("status events fire only on a real move into shipped or delivered", () => {
  eq(statusEvents("ordered", "shipped"), ["order.shipped"]);
  eq(statusEvents("issue", "shipped"), ["order.shipped"]);
  eq(statusEvents("shipped", "shipped"), []);
  eq(statusEvents("delivered", "shipped"), []);
  eq(statusEvents("shipped", "delivered"), ["order.delivered"]);
  eq(statusEvents("ordered", "delivered"), ["order.delivered"]);
  eq(statusEvents("delivered", "delivered"), []);
  eq(statusEvents("ordered", "canceled"), []);
  eq(statusEvents("shipped", "issue"), []);
  eq(mergeEvents(order(), order({ status: "shipped" })), ["order.merged", "order.shipped"]);
  eq(mergeEvents(order({ status: "shipped" }), order({ status: "shipped" })), ["order.merged"]);
  eq(patchEvents(order(), order({ status: "delivered" })), ["order.updated", "order.delivered"]);
  eq(patchEvents(order(), order()), ["order.updated"]);
});

Deno.test("a PATCH applies the fields, records them and reports the patch", () => {
  const before = order({ salePriceCents: 500, store: "Shop", userEdited: ["store"] });
  const { order: after, applied } = applyPatch(before, {
    itemSummary: "Better",
    salePriceCents: null,
    costCents: 100,
  }, T1);
  const { salePriceCents: _cleared, ...rest } = before;
  eq(after, {
    ...rest,
    itemSummary: "Better",
    costCents: 100,
    userEdited: ["costCents", "itemSummary", "salePriceCents", "store"],
    updatedAt: iso(T1),
  });
  eq(applied, {
    itemSummary: "Better",
    costCents: 100,
    salePriceCents: null,
    userEdited: ["costCents", "itemSummary", "salePriceCents", "store"],
  });
});

Deno.test("a tracking number sent by PATCH moves an ordered order to shipped", () => {
  const { order: after, applied } = applyPatch(order(), { trackingNumber: "1Z" }, T1);
  equal(after.status, "shipped");
  eq(applied, { trackingNumber: "1Z", status: "shipped", userEdited: ["trackingNumber"] });
  // Not when the PATCH sets the status itself, nor from other statuses.
  const explicit = applyPatch(order(), { trackingNumber: "1Z", status: "issue" }, T1);
  equal(explicit.order.status, "issue");
  eq(explicit.applied, {
    trackingNumber: "1Z",
    status: "issue",
    userEdited: ["status", "trackingNumber"],
  });
  for (const status of ["shipped", "delivered", "canceled", "issue"] as const) {
    const r = applyPatch(order({ status }), { trackingNumber: "1Z" }, T1);
    equal(r.order.status, status);
    equal("status" in r.applied, false);
  }
});

Deno.test("search text and query matching", () => {
  const o = order({ orderNumber: "#AB-12", store: "Big Shop", trackingNumber: "1Z9" });
  const text = searchText(o);
  equal(text, "ab-12\ncable\nbig shop\n1z9");
  equal(matchesQuery(text, normaliseQuery(" CABLE ")), true);
  equal(matchesQuery(text, "shop"), true);
  equal(matchesQuery(text, "1z9"), true);
  equal(matchesQuery(text, "ab-1"), true);
  equal(matchesQuery(text, "#ab-12"), true);
  equal(matchesQuery(text, "#cable"), false);
  equal(matchesQuery(text, "#"), false);
  equal(matchesQuery(text, "nothing"), false);
  equal(normaliseQuery(undefined), "");
});
