import type { AppDeps } from "../http/env.ts";
import { type EventMessage, onEventsCommitted } from "./emit.ts";

/** A queue message: its `kind` picks the handler, which validates the rest. */
export interface QueueMessage {
  kind: string;
  [field: string]: unknown;
}

/** Handles one kind of queue message; throws only to have the queue deliver it again. */
export type QueueHandler = (message: QueueMessage) => Promise<void>;

/** Handlers by message `kind` (`event`, `delivery`, ...). */
export type QueueHandlers = Record<string, QueueHandler>;

export interface QueueListener {
  /** Settles when KV closes. */
  closed: Promise<void>;
  /** Waits for the handlers that are running (graceful shutdown, tests). */
  drain(): Promise<void>;
}

/**
 * Routes one message to the handler of its `kind`. A message without a handler is logged and
 * acknowledged (retrying it cannot help). This is the transport-free entry point: the KV queue
 * calls it here; a deployment on a remote KV, which has no queues, would call it from a job
 * draining an outbox instead.
 */
export async function dispatch(deps: AppDeps, handlers: QueueHandlers, raw: unknown) {
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
 * The process's one `kv.listenQueue` (several listeners on one KV would split the messages
 * between them), routing by `kind`. Events this process commits are also handed to the `event`
 * handler at once, without waiting for the queue's dequeue; their queue messages follow and
 * find the work done, or redo what a crash left undone.
 */
export function startQueueListener(deps: AppDeps, handlers: QueueHandlers): QueueListener {
  const running = new Set<Promise<void>>();
  const run = (message: unknown) => {
    const task = dispatch(deps, handlers, message);
    running.add(task);
    const done = () => running.delete(task);
    task.then(done, done);
    return task;
  };
  const closed = deps.kv.listenQueue(run);
  const unsubscribe = onEventsCommitted((events) => {
    for (const event of events) {
      run({ kind: "event", event, atCommit: true } satisfies EventMessage).catch((err) =>
        deps.log.warn("event dispatch failed; the queue will retry", { error: String(err) })
      );
    }
  });
  closed.then(unsubscribe, unsubscribe);
  return {
    closed,
    async drain() {
      while (running.size) await Promise.allSettled([...running]);
    },
  };
}

/** Puts messages on the queue, up to 500 per commit. */
export async function enqueueAll(kv: Deno.Kv, messages: QueueMessage[]): Promise<void> {
  for (let i = 0; i < messages.length; i += 500) {
    const op = kv.atomic();
    for (const m of messages.slice(i, i + 500)) op.enqueue(m);
    const res = await op.commit();
    if (!res.ok) throw new Error("enqueue failed");
  }
}
