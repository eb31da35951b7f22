import type { Logger } from "../lib/log.ts";
import type { Events } from "./events.ts";
import type { EventMessage } from "./emit.ts";
import { commit, writerOf } from "../store/kv.ts";
import { messagesOfBatch } from "../store/queue_batch.ts";
import { watchGauge } from "../lib/metrics.ts";

/** A queue message: its `kind` picks the handler, which validates the rest. */
export interface QueueMessage {
  kind: string;
  [field: string]: unknown;
}

/** How long a message handed back by a stopping process waits before it can be taken again. */
export const HAND_BACK_DELAY_MS = 1000;

/** Handles one kind of queue message; throws only to have the queue deliver it again. */
export type QueueHandler = (message: QueueMessage) => Promise<void>;

/** Handlers by message `kind` (`event`, `delivery`, ...). */
export type QueueHandlers = Record<string, QueueHandler>;

export interface QueueListener {
  /**
   * From now on, messages the KV queue delivers here are put back on the queue, unhandled, for
   * another process or the next start (graceful shutdown): handling them could outlast the
   * shutdown, and a message this process has taken but not acknowledged when KV closes is only
   * given back at another process's queue cleanup, about a minute later.
   */
  handBack(): void;
  /**
   * Waits for the handlers that are running (graceful shutdown, tests). With `quietMs`, it also
   * waits until none has started for that long, so the queue has taken the last
   * acknowledgements before KV closes.
   */
  drain(options?: { quietMs?: number }): Promise<void>;
  /**
   * Stops the hand-over at commit; with the KV queue, also waits for `listenQueue` to end,
   * which it does when KV closes (so close KV first).
   */
  close(): Promise<void>;
}

/**
 * Several consumers' handlers as one set: a kind more than one of them handles (every consumer
 * of `event`) runs each of their handlers, concurrently; the message fails (and comes again)
 * if any of them throws, so each must be safe to run again.
 */
export function combineHandlers(...sets: QueueHandlers[]): QueueHandlers {
  const byKind = new Map<string, QueueHandler[]>();
  for (const set of sets) {
    for (const [kind, handler] of Object.entries(set)) {
      byKind.set(kind, [...(byKind.get(kind) ?? []), handler]);
    }
  }
  const out: QueueHandlers = {};
  for (const [kind, handlers] of byKind) {
    out[kind] = handlers.length === 1
      ? handlers[0]
      : (message) => settleAll(handlers.map((handle) => handle(message)));
  }
  return out;
}

/** What the event listener uses of the app's services. */
export interface QueueDeps {
  kv: Deno.Kv;
  log: Logger;
  events: Events;
}

/**
 * Routes one message to the handler of its `kind`. A message without a handler is logged and
 * acknowledged (retrying it cannot help). This is the transport-free entry point: the KV queue
 * calls it here, and the outbox drain job (`src/jobs/outbox_drain.ts`) where KV has no queues.
 * A batch (the messages of one shared commit, store/queue_batch.ts) routes each of its messages,
 * concurrently, and fails (to come again whole) if any of them does: handlers are safe to rerun.
 */
export async function dispatch(
  deps: Pick<QueueDeps, "log">,
  handlers: QueueHandlers,
  raw: unknown,
) {
  const batch = messagesOfBatch(raw);
  if (batch) await settleAll(batch.map((m) => dispatchOne(deps, handlers, m)));
  else await dispatchOne(deps, handlers, raw);
}

/** Waits for every task to end, then throws the first failure, if any. */
async function settleAll(tasks: Promise<void>[]): Promise<void> {
  const failed = (await Promise.allSettled(tasks)).find((r) => r.status === "rejected");
  if (failed) throw failed.reason;
}

async function dispatchOne(deps: Pick<QueueDeps, "log">, handlers: QueueHandlers, raw: unknown) {
  const kind = (raw as { kind?: unknown } | null)?.kind;
  const handler = typeof kind === "string" && Object.hasOwn(handlers, kind)
    ? handlers[kind]
    : undefined;
  if (!handler) {
    deps.log.warn("queue message without a handler", { kind: String(kind) });
    return;
  }
  await handler(raw as QueueMessage);
}

/**
 * The process's event listener. Events this process commits are handed to the `event` handler
 * at once, without waiting for their transport. With the KV queue (`deps.events`), it is also
 * the process's one `kv.listenQueue` (several listeners on one KV would split the messages
 * between them), routing by `kind`: the queue's copies of events find the work done, or redo
 * what a crash left undone. With the outbox there is no queue to listen to; the drain job
 * redoes what a crash left undone.
 */
export function startQueueListener(deps: QueueDeps, handlers: QueueHandlers): QueueListener {
  const running = new Set<Promise<void>>();
  const track = (task: Promise<void>) => {
    running.add(task);
    const done = () => running.delete(task);
    task.then(done, done);
    return task;
  };
  const run = (message: unknown) => track(dispatch(deps, handlers, message));
  watchGauge("event_handlers_running", () => running.size);
  let handingBack = false;
  // A handed-back message is acknowledged once its copy is on the queue; when that commit
  // fails, the throw has the queue redeliver the message itself. The copy is due a moment
  // later, so this process does not take it again while it closes: a message taken in the
  // instant KV closes would wait for another process's queue cleanup.
  const putBack = (message: unknown) =>
    track(enqueueAll(deps.kv, [{ message: message as QueueMessage, delay: HAND_BACK_DELAY_MS }]));
  const fromQueue = (message: unknown) => handingBack ? putBack(message) : run(message);
  // On the store's writing connection: taking and acknowledging messages are writes, which on
  // the store's own connection would hold up the reads of requests.
  const listening = deps.events.transport.name === "queue"
    ? writerOf(deps.kv).listenQueue(fromQueue)
    : null;
  const unsubscribe = deps.events.bus.onCommitted((events) => {
    for (const event of events) {
      run({ kind: "event", event, atCommit: true } satisfies EventMessage).catch((err) =>
        deps.log.warn("event dispatch failed; its transport will retry", { error: String(err) })
      );
    }
  });
  return {
    handBack() {
      handingBack = true;
    },
    async drain({ quietMs = 0 } = {}) {
      do {
        while (running.size) await Promise.allSettled([...running]);
        if (quietMs) await new Promise((resolve) => setTimeout(resolve, quietMs));
      } while (running.size);
    },
    async close() {
      unsubscribe();
      await listening;
    },
  };
}

/** A message to enqueue, and how long the queue holds it back (ms, none by default). */
export interface Outgoing {
  message: QueueMessage;
  delay?: number;
}

/** Puts messages on the queue, up to 500 per commit. */
export async function enqueueAll(kv: Deno.Kv, messages: Outgoing[]): Promise<void> {
  for (let i = 0; i < messages.length; i += 500) {
    const op = kv.atomic();
    for (const { message, delay } of messages.slice(i, i + 500)) op.enqueue(message, { delay });
    const res = await commit(op);
    if (!res.ok) throw new Error("enqueue failed");
  }
}
