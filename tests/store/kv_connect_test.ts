/**
 * Self-hosters beyond one machine point KV_PATH at a managed Deno KV through KV Connect, and
 * Deno Deploy's KV is reached the same way: 10 checks and 1000 mutations (800 KiB) per commit,
 * no queues. The service's heaviest commits run here on a KV that refuses what KV Connect
 * refuses (kv_connect_limits.ts): order creates and merges, edits, intake with a 2 MiB raw copy
 * and its dedupe, import batches, blobs, webhook claims and outcomes at 25 subscriptions, the
 * outbox, API keys, and account deletion.
 */
import { deepStrictEqual as eq, equal, ok, rejects } from "node:assert/strict";
import { newOrder } from "../../src/domain/orders/order.ts";
import { createApp } from "../../src/app.ts";
import { testConfig } from "../../src/config.ts";
import { createDeps, drainDeps } from "../../src/deps.ts";
import { listEvents } from "../../src/events/emit.ts";
import { startQueueListener } from "../../src/events/queue.ts";
import { receiveMessage } from "../../src/intake/receive.ts";
import { CRON_JOBS, jobContext } from "../../src/jobs/registry.ts";
import { newId } from "../../src/lib/ids.ts";
import { deleteBlob, getBlob, putBlob } from "../../src/store/blob.ts";
import { issueSession } from "../../src/store/account/credentials.ts";
import { keys } from "../../src/store/keys.ts";
import { importOrders } from "../../src/store/orders/orders.ts";
import { createUser } from "../../src/store/account/users.ts";
import { call } from "../helpers.ts";
import { startReceiver } from "../net/receiver.ts";
import { testResolver } from "../webhooks/helpers.ts";
import { listAll, unfinishedPairs } from "../process_load.ts";
import { KV_CONNECT, withKvConnectLimits } from "./kv_connect_limits.ts";

const SUBSCRIPTIONS = 25;
const ORDERS = 12;
const TYPES = ["order.created", "order.updated", "order.shipped"];

Deno.test("the limits wrapper refuses what KV Connect refuses", async () => {
  using base = await Deno.openKv(":memory:");
  const { kv, refused } = withKvConnectLimits(base);
  const checks = (n: number) => {
    const op = kv.atomic();
    for (let i = 0; i < n; i++) op.check({ key: ["c", i], versionstamp: null });
    return op.set(["c"], 1).commit();
  };
  equal((await checks(10)).ok, true);
  await rejects(checks(11), /11 checks/);
  const mutations = (n: number) => {
    const op = kv.atomic();
    for (let i = 0; i < n; i++) op.set(["m", i], i);
    return op.commit();
  };
  equal((await mutations(1000)).ok, true);
  await rejects(mutations(1001), /1001 mutations/);
  await rejects(
    kv.atomic().set(["a"], new Uint8Array(60_000)).set(["b"], new Uint8Array(60_000))
      .set(["big"], "x".repeat(70_000)).commit(),
    /value of \d+ bytes/,
  );
  const bulky = kv.atomic();
  for (let i = 0; i < 14; i++) bulky.set(["bulk", i], new Uint8Array(60_000));
  await rejects(bulky.commit(), /\d+ bytes/);
  await rejects(kv.atomic().set(["q"], 1).enqueue("x").commit(), /no queues/);
  await rejects(async () => await kv.enqueue("x"), /no queues/);
  equal(refused.length, 6);
});

Deno.test("the service's heaviest commits stay within KV Connect's limits", async () => {
  using base = await Deno.openKv(":memory:");
  const limited = withKvConnectLimits(base);
  const kv = limited.kv;
  const deps = createDeps({
    kv,
    config: testConfig({
      ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1",
      BILLING_ENABLED: "true",
      FREE_PLAN_MONTHLY_ORDERS: "1000",
      SECRETS_KEY: new Uint8Array(32).fill(4).toBase64(),
    }),
    persistence: "remote",
    outbound: { resolver: testResolver() },
  });
  equal(deps.events.transport.name, "outbox");
  const app = createApp(deps);
  const jobs = jobContext(deps);
  const queue = startQueueListener(deps, jobs.queue);
  await using receiver = startReceiver({ reply: () => new Response(null, { status: 204 }) });
  const ctx = { app };
  try {
    const created = await createUser(kv, { email: "heavy@example.com", username: "heavy" });
    if (!created.ok) throw new Error("no user");
    const userId = created.user.id;
    const token = await issueSession(kv, userId);

    // 25 subscriptions: each event's claims and outcomes span three commits of ten.
    for (let i = 0; i < SUBSCRIPTIONS; i++) {
      const res = await call(ctx, "POST", "/api/webhook-subscriptions", {
        token,
        body: { url: receiver.url(`/s${i}`), eventTypes: TYPES },
      });
      equal(res.status, 201);
    }
    for (let i = 0; i < 3; i++) {
      equal(
        (await call(ctx, "POST", "/api/account/api-keys", { token, body: { name: `k${i}` } }))
          .status,
        201,
      );
    }

    // Creates, merges and edits, all at once: their events go out together.
    const made = await Promise.all(
      Array.from({ length: ORDERS }, (_, i) =>
        call(ctx, "POST", "/api/orders", {
          token,
          body: { itemSummary: `Desk ${i}`, orderNumber: `N-${i}`, store: "Example Store" },
        })),
    );
    ok(made.every((r) => r.status === 201));
    const merged = await Promise.all(
      Array.from({ length: ORDERS }, (_, i) =>
        call(ctx, "POST", "/api/orders", {
          token,
          body: { itemSummary: `Desk ${i}`, orderNumber: `n-${i}`, trackingNumber: `1Z${i}` },
        })),
    );
    ok(merged.every((r) => r.status === 200));
    const edited = await Promise.all(
      made.map((r, i) =>
        call(ctx, "PATCH", `/api/orders/${(r.body.order as { id: string }).id}`, {
          token,
          body: { orderNumber: `M-${i}`, status: "shipped", costCents: 1999 },
        })
      ),
    );
    ok(edited.every((r) => r.status === 200));

    // Intake with a 2 MiB raw copy (staged chunks, then the order's commit), then its retry.
    const raw = new Uint8Array(2 * 1024 * 1024).map((_, i) => i % 251);
    const message = {
      userId,
      channel: "email" as const,
      identity: "<big@shop.example>",
      raw,
      facts: { subject: "Order 77", messageId: "<big@shop.example>" },
      reading: {
        kind: "order" as const,
        fields: { itemSummary: "Bookcase", orderNumber: "77" },
        signals: {},
      },
    };
    const options = {
      now: Date.now(),
      billing: { billingEnabled: true, freePlanMonthlyOrders: 1000 },
      events: deps.events.bus,
    };
    equal((await receiveMessage(kv, message, options)).outcome, "created");
    equal((await receiveMessage(kv, message, options)).outcome, "duplicate");

    // An import of 200 orders, ten to a commit with every index and counter.
    const at = Date.now();
    await importOrders(
      kv,
      userId,
      Array.from({ length: 200 }, (_, i) =>
        newOrder(
          newId("ord", at + i),
          { itemSummary: `Imported ${i}`, orderNumber: `I-${i}`, status: "delivered" },
          {},
          "email",
          at + i,
        )),
    );

    // Blobs: written, rewritten, deleted.
    await putBlob(kv, ["blob_test"], raw);
    await putBlob(kv, ["blob_test"], raw.subarray(0, 700_000));
    equal((await getBlob(kv, ["blob_test"]))?.byteLength, 700_000);
    await deleteBlob(kv, ["blob_test"]);

    // Every event reaches every subscription; the outbox empties.
    const events = (await listEvents(base, userId)).filter((e) => TYPES.includes(e.type));
    ok(events.length > ORDERS * 2);
    const expected = events.length * SUBSCRIPTIONS;
    await receiver.waitFor(expected, 30_000);
    await queue.drain();
    const drain = CRON_JOBS.find((job) => job.name === "outbox drain")!;
    await drain.run(jobs, new AbortController().signal);
    eq(await unfinishedPairs(kv, userId), []);
    eq(await listAll(kv, keys.outbox()), []);
    equal(receiver.requests.length, expected);

    // Snapshot and export read everything; deletion removes it, 500 keys to a commit.
    equal((await call(ctx, "GET", "/api/state", { token })).status, 200);
    equal((await call(ctx, "GET", "/api/account/export", { token })).status, 200);
    const gone = await call(ctx, "DELETE", "/api/account", {
      token,
      body: { confirmEmail: "heavy@example.com" },
    });
    equal(gone.status, 200);
    eq(await Array.fromAsync(base.list({ prefix: ["ws", userId] })), []);

    eq(limited.refused, []);
    // The heaviest paths reached the limits they are built around, and stayed within them.
    equal(limited.largest.checks, KV_CONNECT.checks);
    ok(limited.largest.mutations >= 500 && limited.largest.mutations <= KV_CONNECT.mutations);
    ok(limited.largest.bytes > 700_000 && limited.largest.bytes <= KV_CONNECT.commitBytes);
    console.log(
      `largest commit: ${limited.largest.checks} checks, ${limited.largest.mutations} ` +
        `mutations, ${limited.largest.bytes} bytes`,
    );
  } finally {
    await queue.drain();
    await drainDeps(deps);
    await queue.close();
  }
});
