/**
 * Storage per order: the KV file's growth per order created by the API, by an email (with its
 * stored message) and by a chat post, in the service's own code run in this process (the app,
 * its queue listener delivering the events), the file closed (checkpointed) before each reading.
 */
import { join } from "node:path";
import { createApp } from "../../../src/app.ts";
import { loadConfig } from "../../../src/config.ts";
import { createDeps, drainDeps } from "../../../src/deps.ts";
import { startQueueListener } from "../../../src/events/queue.ts";
import { jobContext } from "../../../src/jobs/registry.ts";
import { createBot } from "../../../src/store/chat/bots.ts";
import { keys } from "../../../src/store/keys.ts";
import { openStore } from "../../../src/store/kv.ts";
import { type Scenario, seedAccount, table } from "../context.ts";
import { benchMail } from "../mails.ts";
import { address, post } from "./chat.ts";

/** Orders per path: enough that SQLite's page slack is a small part of the growth. */
const ORDERS = 1000;
/** Chat posts go to this many bots, each from its own address: under the 60-a-minute limits. */
const BOTS = 50;

interface Path {
  label: string;
  request: (n: number, apiKey: string, botPaths: string[]) => Request;
}

const json = (url: string, headers: Record<string, string>, body: string) =>
  new Request(`http://localhost${url}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });

const bearer = (apiKey: string) => ({ authorization: `Bearer ${apiKey}` });

const PATHS: Path[] = [
  {
    label: "API (`POST /api/orders`)",
    request: (n, apiKey) =>
      json(
        "/api/orders",
        bearer(apiKey),
        JSON.stringify({
          itemSummary: `Bench item ${n}`,
          orderNumber: `B-${n}`,
          store: "Bench store",
          costCents: 1299,
        }),
      ),
  },
  {
    label: "email (`POST /api/email/import`, 30 to 80 KiB HTML, raw copy stored)",
    request: (n, apiKey) =>
      json("/api/email/import", bearer(apiKey), JSON.stringify({ raw: benchMail(n) })),
  },
  {
    label: "chat (bot URL, 1.2 KB checkout post, raw copy stored)",
    request: (n, _apiKey, botPaths) =>
      json(botPaths[n % BOTS], { "x-forwarded-for": address(n) }, post(n)),
  },
];

async function fileBytes(kvPath: string): Promise<number> {
  let total = 0;
  for (const suffix of ["", "-wal", "-shm"]) {
    try {
      total += (await Deno.stat(kvPath + suffix)).size;
    } catch {
      // absent once closed
    }
  }
  return total;
}

/** Creates `ORDERS` orders through `path` on a fresh KV file; bytes before, after, orders. */
async function measure(path: Path) {
  const dir = await Deno.makeTempDir({ prefix: "bench-storage-" });
  try {
    const kvPath = join(dir, "kv.sqlite3");
    let apiKey = "";
    const botPaths: string[] = [];
    let userId = "";
    {
      const store = await openStore(kvPath);
      const { kv } = store;
      const user = await seedAccount(kv, (k) => apiKey = k);
      userId = user.id;
      for (let i = 0; i < BOTS; i++) {
        const bot = await createBot(kv, user, { name: `Bot ${i}`, active: true }, Date.now());
        botPaths.push(`/api/webhooks/chat/${bot!.handle}/${bot!.slug}`);
      }
      store.close();
    }
    const before = await fileBytes(kvPath);
    const store = await openStore(kvPath);
    const { kv, persistence } = store;
    const config = loadConfig({ ...Deno.env.toObject(), KV_PATH: kvPath, LOG_LEVEL: "error" });
    const deps = createDeps({ kv, config, persistence });
    const app = createApp(deps);
    const queue = startQueueListener(deps, jobContext(deps).queue);
    const statuses: Record<number, number> = {};
    for (let n = 0; n < ORDERS; n++) {
      const res = await app.fetch(path.request(n, apiKey, botPaths));
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      await res.body?.cancel();
    }
    const orders = await Array.fromAsync(kv.list({ prefix: keys.orders(userId) }));
    queue.handBack();
    await queue.drain();
    await drainDeps(deps);
    await queue.drain({ quietMs: 200 });
    store.close();
    await queue.close();
    return { before, after: await fileBytes(kvPath), orders: orders.length, statuses };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

export const storage: Scenario = {
  name: "storage",
  title: "Storage: bytes in the KV file per order",
  async run() {
    const rows: (string | number)[][] = [];
    for (const path of PATHS) {
      const m = await measure(path);
      const per = Math.round((m.after - m.before) / m.orders);
      rows.push([
        path.label,
        m.orders,
        Object.entries(m.statuses).map(([s, n]) => `${s}: ${n}`).join(", "),
        (m.after - m.before).toLocaleString("en"),
        per.toLocaleString("en"),
      ]);
    }
    return [
      `${ORDERS.toLocaleString("en")} orders per way in, each on a fresh KV file (SQLite), the ` +
      "service's app and queue listener run in the bench process; the file is closed (its WAL " +
      "checkpointed) before and after, and its growth divided by the orders stored.",
      "",
      table(["Way in", "Orders stored", "Answers", "File growth, bytes", "Bytes per order"], rows),
    ].join("\n");
  },
};
