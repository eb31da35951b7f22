/**
 * The orders benchmark's ceiling: a bare `Deno.serve` doing the same KV work as the service's
 * `POST /api/orders` and `GET /api/orders` (token lookup, the same store functions, one commit
 * per create, the same queue listener delivering the events), without the framework: no
 * router, middleware or schema validation.
 */
import { isOrderStatus } from "../../src/domain/orders/order.ts";
import { normaliseQuery } from "../../src/domain/orders/search_terms.ts";
import { envelope, parsePaging } from "../../src/http/paging.ts";
import { dayRange, safeTimeZone } from "../../src/lib/timezone.ts";
import { loadConfig } from "../../src/config.ts";
import { createDeps } from "../../src/deps.ts";
import { webhookHandlers } from "../../src/webhooks/delivery.ts";
import { startQueueListener } from "../../src/events/queue.ts";
import { resolveToken } from "../../src/store/account/credentials.ts";
import { openStore } from "../../src/store/kv.ts";
import { commitEachAlone } from "../../src/store/group_commit.ts";
import { listOrders } from "../../src/store/orders/list.ts";
import { ingestOrder } from "../../src/store/orders/orders.ts";
import { getUser } from "../../src/store/account/users.ts";

const config = loadConfig(Deno.env.toObject());
const { kv, persistence } = await openStore(config.kvPath);
// The ceiling is one commit per request: no group commit.
commitEachAlone(kv);
const deps = createDeps({ kv, config, persistence });
startQueueListener(deps, webhookHandlers(deps));
const { apiKeyUse } = deps;
const HEADERS = { "content-type": "application/json; charset=utf-8" };

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: HEADERS });

Deno.serve({
  port: config.port,
  hostname: config.host,
  onListen: () => {},
}, async (req) => {
  const url = new URL(req.url);
  if (url.pathname !== "/api/orders") return json({ error: "Not found" }, 404);
  const token = req.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
  const principal = await resolveToken(kv, token);
  if (!principal) return json({ error: "Unauthorized" }, 401);
  const { userId } = principal;
  if (principal.kind === "apiKey") apiKeyUse.record(userId, principal.credentialId, Date.now());

  if (req.method === "POST") {
    const fields = await req.json();
    const result = await ingestOrder(kv, { userId, source: "manual", fields }, {
      now: Date.now(),
      billing: config,
      events: deps.events.bus,
    });
    if (!result.ok) return json({ error: "Not stored", reason: result.reason }, 429);
    return json({ order: result.order, merged: result.merged }, result.merged ? 200 : 201);
  }

  const q = Object.fromEntries(url.searchParams);
  const paging = parsePaging(q);
  const user = q.from || q.to ? await getUser(kv, userId) : null;
  const { items, total } = await listOrders(kv, userId, {
    status: isOrderStatus(q.status) ? q.status : undefined,
    q: normaliseQuery(q.q),
    ...(user ? dayRange(q.from, q.to, safeTimeZone(user.timezone)) : {}),
  }, paging);
  return json(envelope(items, total, paging));
});
