/**
 * What the process-level tests (real services as child processes: crash, shutdown, rolling
 * restart) share: JSON calls, clients creating orders, and the delivery bookkeeping read back
 * from the KV file.
 */
import type { AttemptMarker } from "../src/domain/webhooks/attempt.ts";
import { keys } from "../src/store/keys.ts";
import type { Received } from "./net/receiver.ts";

/** A POST with a JSON body; throws unless it answers 201. */
export async function post<T>(
  baseUrl: string,
  path: string,
  token: string | null,
  body: unknown,
): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json as T;
}

/**
 * Registers an account and subscribes it to `order.created` at each of `urls`: its token, its
 * id and the subscription ids, in the order of `urls`.
 */
export async function accountWithSubscriptions(baseUrl: string, email: string, urls: string[]) {
  const { token, user } = await post<{ token: string; user: { id: string } }>(
    baseUrl,
    "/api/auth/register",
    null,
    { email, password: "correct horse battery staple" },
  );
  const subIds: string[] = [];
  for (const url of urls) {
    const body = { url, eventTypes: ["order.created"] };
    subIds.push(
      (await post<{ id: string }>(baseUrl, "/api/webhook-subscriptions", token, body)).id,
    );
  }
  return { token, userId: user.id, subIds };
}

export interface OrderLoad {
  /** Ids of the orders answered 201. */
  created: string[];
  /** Answers other than 201, and failed requests unless `stopOnError` (there must be none). */
  unexpected: string[];
  /** Orders answered 201 by each target. */
  servedBy: Map<string, number>;
  /** Stops the clients; those that stopped on an error have stopped already. */
  stop(): Promise<void>;
}

/**
 * `clients` clients creating orders at `target()` (read before every request) until stopped.
 * With `stopOnError`, a client whose request fails (its server was killed) stops without
 * counting it: whether that order was stored is unknown.
 */
export function startOrderLoad(options: {
  target: () => string;
  token: string;
  clients?: number;
  stopOnError?: boolean;
}): OrderLoad {
  const out = {
    created: [] as string[],
    unexpected: [] as string[],
    servedBy: new Map<string, number>(),
  };
  let stopped = false;
  const client = async () => {
    while (!stopped) {
      let res: Response;
      let body: { order?: { id: string } };
      const target = options.target();
      try {
        res = await fetch(`${target}/api/orders`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${options.token}`,
            "content-type": "application/json",
          },
          body: JSON.stringify({ itemSummary: "Desk lamp" }),
        });
        body = await res.json();
      } catch (err) {
        if (options.stopOnError) return;
        out.unexpected.push(String(err));
        continue;
      }
      if (res.status === 201 && body.order) {
        out.created.push(body.order.id);
        out.servedBy.set(target, (out.servedBy.get(target) ?? 0) + 1);
      } else out.unexpected.push(`${res.status} ${JSON.stringify(body)}`);
    }
  };
  const running = Array.from({ length: options.clients ?? 16 }, client);
  return {
    ...out,
    async stop() {
      stopped = true;
      await Promise.all(running);
    },
  };
}

/** Every attempt marker of the account: `"<event id> <subscription id>"` and its state. */
export async function attemptMarkers(kv: Deno.Kv, userId: string) {
  const out: { pair: string; state: AttemptMarker["state"] }[] = [];
  const prefix = keys.webhookAttempt(userId, "", "").slice(0, 3);
  for await (const e of kv.list<AttemptMarker>({ prefix })) {
    out.push({ pair: `${String(e.key[3])} ${String(e.key[4])}`, state: e.value.state });
  }
  return out;
}

/** The pairs claimed without an outcome. */
export async function unfinishedPairs(kv: Deno.Kv, userId: string): Promise<string[]> {
  return (await attemptMarkers(kv, userId)).filter((m) => m.state !== "done").map((m) => m.pair);
}

export async function listAll<T>(kv: Deno.Kv, prefix: Deno.KvKey): Promise<T[]> {
  const out: T[] = [];
  for await (const e of kv.list<T>({ prefix })) out.push(e.value);
  return out;
}

/** The order a webhook request carried. */
export const orderOf = (req: Received) =>
  (JSON.parse(req.body) as { data: { order: { id: string } } }).data.order.id;

/** How many times each `"<event id> <path>"` pair reached the receiver. */
export function copiesOf(requests: Received[]): Map<string, number> {
  const copies = new Map<string, number>();
  for (const r of requests) {
    const key = `${r.headers.get("x-service-event-id")} ${r.path}`;
    copies.set(key, (copies.get(key) ?? 0) + 1);
  }
  return copies;
}
