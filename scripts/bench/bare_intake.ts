/**
 * The email intake benchmark's one-commit ceiling: a bare `Deno.serve` that takes the same
 * import body, resolves the token and stores the message through the same seam
 * (`receiveMessage`: log entry, dedupe key, raw copy and the order in one commit) with a
 * reading taken from the subject by one regular expression, so what it leaves out is the
 * reading itself (MIME, HTML, templates, extraction) and the framework.
 */
import { loadConfig } from "../../src/config.ts";
import { createDeps } from "../../src/deps.ts";
import { startQueueListener } from "../../src/events/queue.ts";
import { receiveMessage } from "../../src/intake/receive.ts";
import { jobContext } from "../../src/jobs/registry.ts";
import { resolveToken } from "../../src/store/account/credentials.ts";
import { openStore } from "../../src/store/kv.ts";
import { commitEachAlone } from "../../src/store/group_commit.ts";

const config = loadConfig(Deno.env.toObject());
const { kv, persistence } = await openStore(config.kvPath);
// The ceiling is one commit per message: no group commit.
commitEachAlone(kv);
const deps = createDeps({ kv, config, persistence });
startQueueListener(deps, jobContext(deps).queue);
const HEADERS = { "content-type": "application/json; charset=utf-8" };
const json = (body: unknown, status: number) =>
  new Response(JSON.stringify(body), { status, headers: HEADERS });

Deno.serve({ port: config.port, hostname: config.host, onListen: () => {} }, async (req) => {
  const token = req.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
  const principal = await resolveToken(kv, token);
  if (!principal) return json({ error: "Unauthorized" }, 401);
  const { raw } = await req.json() as { raw: string };
  const bytes = new TextEncoder().encode(raw);
  const number = /^Subject: Order #(\S+)/m.exec(raw)?.[1] ?? "";
  const messageId = /^Message-ID: (\S+)/mi.exec(raw)?.[1] ?? "";
  const received = await receiveMessage(kv, {
    userId: principal.userId,
    channel: "email",
    identity: messageId,
    raw: bytes,
    facts: { messageId },
    reading: {
      kind: "order",
      fields: { itemSummary: "Bench item", orderNumber: number },
      signals: {},
    },
  }, { now: Date.now(), billing: config, events: deps.events.bus });
  return json(received, received.outcome === "created" ? 202 : 200);
});
