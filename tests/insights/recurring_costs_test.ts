import { deepStrictEqual as eq, equal, match } from "node:assert/strict";
import { call, signUp, testApp } from "../helpers.ts";

// deno-lint-ignore no-explicit-any -- JSON response bodies, checked by deepStrictEqual
type Body = Record<string, any>;

const NOW = Date.parse("2025-03-01T03:00:00.000Z"); // still 28 February in New York

Deno.test("recurring costs: create with defaults, get, list, patch, delete", async () => {
  await using ctx = await testApp({}, { now: () => NOW });
  const { token } = await signUp(ctx, { timezone: "America/New_York" });
  const created = await call<Body>(ctx, "POST", "/api/subscriptions", {
    token,
    body: { name: "  Tool  ", costCents: 2999, frequency: "monthly" },
  });
  equal(created.status, 201);
  const sub = created.body.subscription;
  match(sub.id, /^sub_/);
  eq(sub, {
    id: sub.id,
    name: "Tool",
    costCents: 2999,
    frequency: "monthly",
    startDate: "2025-02-28",
    active: true,
    createdAt: "2025-03-01T03:00:00.000Z",
    updatedAt: "2025-03-01T03:00:00.000Z",
  });
  eq((await call<Body>(ctx, "GET", `/api/subscriptions/${sub.id}`, { token })).body, {
    subscription: sub,
  });

  const second = await call<Body>(ctx, "POST", "/api/subscriptions", {
    token,
    body: {
      name: "Storage",
      costCents: 0,
      frequency: "yearly",
      startDate: "2024-02-29",
      active: false,
    },
  });
  equal(second.status, 201);
  const page = await call<Body>(ctx, "GET", "/api/subscriptions?limit=1&offset=1", { token });
  eq(page.body, {
    items: [second.body.subscription],
    total: 2,
    limit: 1,
    offset: 1,
    hasMore: false,
  });

  const patched = await call<Body>(ctx, "PATCH", `/api/subscriptions/${sub.id}`, {
    token,
    body: { costCents: 1000, active: false },
  });
  equal(patched.status, 200);
  eq(patched.body.subscription, { ...sub, costCents: 1000, active: false });

  // Another account sees none of it.
  const other = await signUp(ctx);
  equal(
    (await call(ctx, "GET", `/api/subscriptions/${sub.id}`, { token: other.token })).status,
    404,
  );
  equal(
    (await call(ctx, "PATCH", `/api/subscriptions/${sub.id}`, {
      token: other.token,
      body: { name: "x" },
    })).status,
    404,
  );
  equal(
    (await call(ctx, "DELETE", `/api/subscriptions/${sub.id}`, { token: other.token })).status,
    404,
  );

  eq((await call(ctx, "DELETE", `/api/subscriptions/${sub.id}`, { token })).body, { ok: true });
  eq((await call(ctx, "GET", `/api/subscriptions/${sub.id}`, { token })).body, {
    error: "Recurring cost not found",
  });
  equal((await call<Body>(ctx, "GET", "/api/subscriptions", { token })).body.total, 1);

  // The snapshot and the export list them.
  const state = await call<Body>(ctx, "GET", "/api/state", { token });
  eq(state.body.subscriptions, [second.body.subscription]);
});

Deno.test("recurring costs: create and PATCH validate every field (400 naming it)", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const post = (body: Body) => call<Body>(ctx, "POST", "/api/subscriptions", { token, body });
  const base = { name: "A", costCents: 1, frequency: "weekly" };
  const cases: [Body, string][] = [
    [{ costCents: 1, frequency: "weekly" }, "name is required"],
    [{ ...base, name: "  " }, "name: must not be empty"],
    [{ ...base, name: "x".repeat(121) }, "name: "],
    [{ ...base, costCents: -1 }, "costCents: "],
    [{ ...base, costCents: 1.5 }, "costCents: "],
    [{ ...base, frequency: "daily" }, "frequency: "],
    [{ ...base, startDate: "2025-02-30" }, "startDate: "],
    [{ ...base, startDate: "1969-12-31" }, "startDate: must be from 1970-01-01"],
    [{ ...base, active: "yes" }, "active: "],
  ];
  for (const [body, error] of cases) {
    const res = await post(body);
    equal(res.status, 400, JSON.stringify(body));
    equal(res.body.error.startsWith(error), true, `${res.body.error} for ${JSON.stringify(body)}`);
  }
  const { body } = await post(base);
  const id = body.subscription.id;
  for (const patch of [{ name: "" }, { costCents: -5 }, { frequency: "fortnightly" }]) {
    const res = await call<Body>(ctx, "PATCH", `/api/subscriptions/${id}`, { token, body: patch });
    equal(res.status, 400, JSON.stringify(patch));
  }
  eq((await call<Body>(ctx, "GET", `/api/subscriptions/${id}`, { token })).body, body);
});

Deno.test("recurring costs are capped at 100 per account, checked in the commit", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const results = await Promise.all(
    Array.from({ length: 110 }, (_, i) =>
      call(ctx, "POST", "/api/subscriptions", {
        token,
        body: { name: `c${i}`, costCents: i, frequency: "monthly" },
      })),
  );
  equal(results.filter((r) => r.status === 201).length, 100);
  equal(results.filter((r) => r.status === 429).length, 10);
  equal((await call<Body>(ctx, "GET", "/api/subscriptions", { token })).body.total, 100);
});
