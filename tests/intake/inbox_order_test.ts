/** "Make an order from this": an ignored email made into an order on the person's word. */
import { deepStrictEqual as eq, equal, match, ok } from "node:assert/strict";
import { listEvents } from "../../src/events/emit.ts";
import { call, signUp, testApp } from "../helpers.ts";
import { fixture } from "./helpers.ts";

// deno-lint-ignore no-explicit-any -- JSON bodies checked field by field
type Body = Record<string, any>;

Deno.test("an ignored email becomes an order when the person asks; once", async () => {
  await using ctx = await testApp();
  const { token, user } = await signUp(ctx);
  const raw = fixture("concepts/abandoned_cart.eml");
  const ignored = await call<Body>(ctx, "POST", "/api/email/import", { token, body: { raw } });
  equal(ignored.status, 422);
  const logId = ignored.body.logId;
  match(logId, /^log_/);

  const made = await call<Body>(ctx, "POST", `/api/inbox/${logId}/order`, { token });
  equal(made.status, 202, JSON.stringify(made.body));
  eq([made.body.ok, made.body.merged], [true, false]);
  const order = (await call<Body>(ctx, "GET", `/api/orders/${made.body.orderId}`, { token }))
    .body.order;
  equal(order.source, "email");
  ok(order.itemSummary.length > 0);
  // A new entry beside the ignored one; the order's events fire.
  const inbox = await call<Body>(ctx, "GET", "/api/inbox", { token });
  eq(inbox.body.items.map((e: Body) => e.outcome), ["created", "ignored"]);
  eq((await listEvents(ctx.kv, user.id)).map((e) => e.type), ["order.created"]);

  // Asked again: the message made an order already; an entry that made one is refused too.
  const twice = await call<Body>(ctx, "POST", `/api/inbox/${logId}/order`, { token });
  eq([twice.status, twice.body], [409, {
    error: "This message made an order already",
    orderId: made.body.orderId,
  }]);
  equal((await call<Body>(ctx, "GET", "/api/orders", { token })).body.total, 1);
  const again = await call<Body>(ctx, "POST", `/api/inbox/${made.body.logId}/order`, { token });
  eq([again.status, again.body], [409, { error: "This message is not one that made no order" }]);
  const other = await signUp(ctx);
  equal(
    (await call(ctx, "POST", `/api/inbox/${made.body.logId}/order`, { token: other.token }))
      .status,
    404,
  );
});
