/**
 * Several instances of the service on one store (Deno Deploy runs as many as it likes; a
 * self-hoster runs several processes on one KV): three apps, each with its own dependencies and
 * its own connection to one KV file, take concurrent requests and copies of the same events.
 * Plan cap, dedupe keys, webhook claims, leases, totals and the search index stay exact, with
 * either event transport.
 */
import { deepStrictEqual as eq, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { testConfig } from "../../src/config.ts";
import { createDeps, drainDeps } from "../../src/deps.ts";
import type { AppDeps } from "../../src/deps.ts";
import { dispatch, startQueueListener } from "../../src/events/queue.ts";
import type { EventEnvelope } from "../../src/domain/events/envelope.ts";
import { type IncomingMessage, receiveMessage } from "../../src/intake/receive.ts";
import { type JobContext, jobContext } from "../../src/jobs/registry.ts";
import { createLogger } from "../../src/lib/log.ts";
import { issueSession } from "../../src/store/account/credentials.ts";
import { keys } from "../../src/store/keys.ts";
import { withLease } from "../../src/store/lease.ts";
import { countByStatus, countOrders, listAllOrders } from "../../src/store/orders/list.ts";
import { createUser } from "../../src/store/account/users.ts";
import type { WebhookLogEntry } from "../../src/store/webhooks/logs.ts";
import { call } from "../helpers.ts";
import { sleep, startReceiver } from "../net/receiver.ts";
import { attemptMarkers, copiesOf, listAll } from "../process_load.ts";

const CAP = 20;
/** Orders (and so events) of the claims step: under the cap. */
const EVENTS = 18;
const ENV = {
  BILLING_ENABLED: "true",
  FREE_PLAN_MONTHLY_ORDERS: String(CAP),
  ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1",
  SECRETS_KEY: new Uint8Array(32).fill(11).toBase64(),
};

interface Instance {
  app: ReturnType<typeof createApp>;
  deps: AppDeps;
  jobs: JobContext;
  close(): Promise<void>;
}

async function instance(path: string, events: "queue" | "outbox"): Promise<Instance> {
  const kv = await Deno.openKv(path);
  const config = testConfig(ENV);
  const deps = createDeps({
    kv,
    config,
    persistence: "sqlite",
    events,
    log: createLogger("error", () => {}),
  });
  const jobs = jobContext(deps);
  const queue = startQueueListener(deps, jobs.queue);
  return {
    app: createApp(deps),
    deps,
    jobs,
    async close() {
      await queue.drain();
      await drainDeps(deps);
      kv.close();
      await queue.close();
    },
  };
}

async function account(kv: Deno.Kv, email: string) {
  const created = await createUser(kv, { email });
  if (!created.ok) throw new Error("no user");
  return { userId: created.user.id, token: await issueSession(kv, created.user.id) };
}

/** `n` calls spread over the instances in turn, all at once. */
function spread<T>(apps: Instance[], n: number, fn: (app: Instance, i: number) => Promise<T>) {
  return Promise.all(Array.from({ length: n }, (_, i) => fn(apps[i % apps.length], i)));
}

for (const transport of ["queue", "outbox"] as const) {
  Deno.test(`three instances on one KV stay exact (${transport})`, async (t) => {
    const dir = await Deno.makeTempDir();
    const path = join(dir, "kv.sqlite3");
    const apps = [
      await instance(path, transport),
      await instance(path, transport),
      await instance(path, transport),
    ];
    const kv = apps[0].deps.kv;
    await using receiver = startReceiver({
      reply: () => sleep(5 + Math.random() * 20).then(() => new Response(null, { status: 204 })),
    });
    try {
      await t.step(
        "the plan cap: 30 creates at a cap of 20, spread over the instances",
        async () => {
          const { userId, token } = await account(kv, "cap@example.com");
          const res = await spread(
            apps,
            30,
            (a, i) => call(a, "POST", "/api/orders", { token, body: { itemSummary: `cap ${i}` } }),
          );
          const statuses = res.map((r) => r.status).sort();
          eq(statuses, [...Array(CAP).fill(201), ...Array(30 - CAP).fill(429)]);
          equal(await countOrders(kv, userId), CAP);
          for (const a of apps) {
            const usage = await call(a, "GET", "/api/billing/usage", { token });
            equal(usage.body.used, CAP);
          }
        },
      );

      await t.step(
        "dedupe: each message received by every instance at once is stored once",
        async () => {
          const { userId, token } = await account(kv, "dedupe@example.com");
          const message = (i: number): IncomingMessage => ({
            userId,
            channel: "email",
            identity: `<m${i}@shop.example>`,
            raw: new TextEncoder().encode(`Subject: Order ${i}\r\n\r\nThanks`),
            facts: { subject: `Order ${i}`, messageId: `<m${i}@shop.example>` },
            reading: { kind: "order", fields: { itemSummary: `Shoes ${i}` }, signals: {} },
          });
          const outcomes = await spread(
            apps,
            15,
            (a, i) =>
              receiveMessage(a.deps.kv, message(i % 5), {
                now: Date.now(),
                billing: { billingEnabled: false, freePlanMonthlyOrders: CAP },
                events: a.deps.events.bus,
              }),
          );
          for (let i = 0; i < 5; i++) {
            const mine = outcomes.filter((_, j) => j % 5 === i).map((o) => o.outcome).sort();
            eq(mine, ["created", "duplicate", "duplicate"], `message ${i}`);
          }
          // One order number posted through every instance at once: one order, merged twice.
          const posted = await spread(apps, 3, (a) =>
            call(a, "POST", "/api/orders", {
              token,
              body: { itemSummary: "Lamp", orderNumber: "#112-555" },
            }));
          eq(posted.map((r) => r.status).sort(), [200, 200, 201]);
          equal(new Set(posted.map((r) => (r.body.order as { id: string }).id)).size, 1);
          equal(await countOrders(kv, userId), 6);
        },
      );

      await t.step(
        "webhook claims: every copy of every event on every instance, one send each",
        async () => {
          const { userId, token } = await account(kv, "claims@example.com");
          const sub = await call(apps[1], "POST", "/api/webhook-subscriptions", {
            token,
            body: { url: receiver.url("/hook"), eventTypes: ["order.created"] },
          });
          equal(sub.status, 201);
          const created = await spread(
            apps,
            EVENTS,
            (a, i) =>
              call(a, "POST", "/api/orders", { token, body: { itemSummary: `claim ${i}` } }),
          );
          ok(created.every((r) => r.status === 201));
          // Each event's transport copy arriving on all three instances at once, while the
          // committing instance's hand-over is under way.
          const events = await listAll<EventEnvelope>(kv, keys.events(userId));
          equal(events.length, EVENTS);
          await Promise.all(
            events.flatMap((event) =>
              apps.map((a) => dispatch(a.deps, a.jobs.queue, { kind: "event", event }))
            ),
          );
          await receiver.waitFor(EVENTS, 10_000);
          let markers = await attemptMarkers(kv, userId);
          for (let i = 0; i < 100 && markers.some((m) => m.state !== "done"); i++) {
            await sleep(50);
            markers = await attemptMarkers(kv, userId);
          }
          await sleep(300); // room for a second copy, were there one
          const copies = copiesOf(receiver.requests.filter((r) => r.path === "/hook"));
          equal(copies.size, EVENTS);
          ok([...copies.values()].every((n) => n === 1), "an event was sent twice");
          equal(markers.length, EVENTS);
          ok(markers.every((m) => m.state === "done"));
          const logs = await listAll<WebhookLogEntry>(kv, keys.webhookLogs(userId));
          equal(logs.length, EVENTS);
          const stored = await call(apps[2], "GET", `/api/webhook-subscriptions`, { token });
          const [subscription] = stored.body.items as { failureCount: number }[];
          equal(subscription.failureCount, 0);
          if (transport === "outbox") eq(await listAll(kv, keys.outbox()), []);
        },
      );

      await t.step("leases: a job fired on every instance at once runs on one", async () => {
        for (let round = 0; round < 5; round++) {
          let runs = 0;
          const ran = await Promise.all(
            apps.map((a) =>
              withLease(a.deps.kv, "instances-test", 10_000, Date.now, async () => {
                runs++;
                await sleep(50);
              })
            ),
          );
          equal(runs, 1);
          eq(ran.filter(Boolean).length, 1);
        }
      });

      await t.step(
        "totals: counters agree with the orders, whichever instance answers",
        async () => {
          const { userId, token } = await account(kv, "totals@example.com");
          const created = await spread(
            apps,
            12,
            (a, i) =>
              call(a, "POST", "/api/orders", { token, body: { itemSummary: `total ${i}` } }),
          );
          const ids = created.map((r) => (r.body.order as { id: string }).id);
          // Every order patched from every instance at once, to different statuses.
          const statuses = ["shipped", "delivered", "canceled"] as const;
          await Promise.all(
            ids.flatMap((id) =>
              apps.map((a, k) =>
                call(a, "PATCH", `/api/orders/${id}`, { token, body: { status: statuses[k] } })
              )
            ),
          );
          await Promise.all(
            ids.slice(0, 3).map((id, i) => call(apps[i], "DELETE", `/api/orders/${id}`, { token })),
          );
          const orders = await listAllOrders(kv, userId);
          equal(orders.length, 9);
          const byStatus = Object.groupBy(orders, (o) => o.status);
          const counted = await countByStatus(kv, userId);
          for (const status of ["ordered", ...statuses] as const) {
            equal(counted[status], byStatus[status]?.length ?? 0, status);
          }
          for (const a of apps) {
            const all = await call(a, "GET", "/api/orders?limit=1", { token });
            equal(all.body.total, 9);
            for (const status of statuses) {
              const page = await call(a, "GET", `/api/orders?status=${status}&limit=1`, { token });
              equal(page.body.total, byStatus[status]?.length ?? 0);
            }
          }
          const landing = await Promise.all(
            apps.map((a) => call(a, "GET", "/api/landing-stats")),
          );
          equal(new Set(landing.map((r) => r.body.ordersTracked)).size, 1);
        },
      );

      await t.step("search: each instance's index follows changes made on the others", async () => {
        const { token } = await account(kv, "search@example.com");
        const search = async (a: Instance, q: string) =>
          ((await call(a, "GET", `/api/orders?q=${q}`, { token })).body.items as {
            id: string;
          }[]).map((o) => o.id);
        // Each index is built before the changes, so it must catch up from the change log.
        for (const a of apps) eq(await search(a, "walnut"), []);
        const made = await call(apps[0], "POST", "/api/orders", {
          token,
          body: { itemSummary: "Walnut desk" },
        });
        const id = (made.body.order as { id: string }).id;
        await call(apps[0], "POST", "/api/orders", { token, body: { itemSummary: "Oak shelf" } });
        for (const a of apps) eq(await search(a, "walnut"), [id]);
        equal(
          (await call(apps[1], "PATCH", `/api/orders/${id}`, {
            token,
            body: { itemSummary: "Maple desk" },
          })).status,
          200,
        );
        for (const a of apps) {
          eq(await search(a, "walnut"), []);
          eq(await search(a, "maple"), [id]);
        }
        equal((await call(apps[2], "DELETE", `/api/orders/${id}`, { token })).status, 200);
        for (const a of apps) {
          eq(await search(a, "maple"), []);
          equal((await search(a, "oak")).length, 1);
        }
      });
    } finally {
      for (const a of apps) await a.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
