/**
 * The webhook benchmark's delivery-pipeline server: the service's queue listener and delivery
 * code on a seeded KV file, fed with order events committed straight through the store
 * (the event bus, the way `POST /api/orders` commits them) instead of through the HTTP route.
 * `POST /events` with `{"userIds": [...]}` commits one `order.created` event per account, 50
 * events to a commit, and answers 204 once they are stored; delivery starts at each commit,
 * exactly as after an order's commit in the service.
 */
import { loadConfig } from "../../src/config.ts";
import { createDeps } from "../../src/deps.ts";
import { newOrder } from "../../src/domain/orders/order.ts";
import { webhookHandlers } from "../../src/webhooks/delivery.ts";
import { startQueueListener } from "../../src/events/queue.ts";
import { buildEvent } from "../../src/domain/events/envelope.ts";
import { newId } from "../../src/lib/ids.ts";
import { openStore } from "../../src/store/kv.ts";

const EVENTS_PER_COMMIT = 50;

const config = loadConfig(Deno.env.toObject());
const { kv, persistence } = await openStore(config.kvPath);
const deps = createDeps({ kv, config, persistence });
startQueueListener(deps, webhookHandlers(deps));

let sequence = 0;

/** The event an order created through the API would carry. */
function orderCreated(userId: string) {
  const now = Date.now();
  const order = newOrder(
    newId("ord", now),
    { itemSummary: `Bench item ${++sequence}` },
    {},
    "manual",
    now,
  );
  return buildEvent("order.created", userId, { order, source: "manual" }, now);
}

Deno.serve({ port: config.port, hostname: config.host, onListen: () => {} }, async (req) => {
  if (req.method !== "POST" || new URL(req.url).pathname !== "/events") {
    return new Response(null, { status: 404 });
  }
  const { userIds } = await req.json() as { userIds: string[] };
  const commits = [];
  for (let i = 0; i < userIds.length; i += EVENTS_PER_COMMIT) {
    const events = userIds.slice(i, i + EVENTS_PER_COMMIT).map(orderCreated);
    commits.push(deps.events.bus.commit(kv.atomic(), events));
  }
  const failed = (await Promise.all(commits)).some((r) => !r.ok);
  return new Response(null, { status: failed ? 500 : 204 });
});
