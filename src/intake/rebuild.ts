/**
 * The mailbox rebuild (`POST /api/email-sources/:id/rebuild`): the last `sinceDays` days of a
 * source read again in the background, without events. An imap source's mailbox is read again;
 * a forwarding source's stored messages are. Each message goes through `rereadMail`: what the
 * workspace lacks is stored, a stored message that made no order is stored again when it now
 * reads as one, and the orders of the others have their messages re-read (`reparseOrders`), so
 * today's templates correct them. One rebuild per source at a time (a KV lease).
 */
import type { IntakeDeps } from "./deps.ts";
import { sinceDaysStart, type StoredEmailSource } from "../domain/intake/email_source.ts";
import { compact } from "../lib/compact.ts";
import {
  changeEmailSource,
  type RebuildProgress,
  saveRebuildProgress,
} from "../store/intake/email_sources.ts";
import { getRawMessage, listIntakeLog } from "../store/intake/log.ts";
import { withLease } from "../store/lease.ts";
import { MailboxError, MailboxSession } from "./imap/client.ts";
import { loginOf } from "./imap/host.ts";
import { customTemplatesOf, type IncomingMail, mailOptions, rereadMail } from "./mail.ts";
import { reparseOrders } from "./reparse.ts";

/** At most this many messages (the newest) are read again, within this long. */
export const MAX_REBUILD_MESSAGES = 10_000;
export const REBUILD_MS = 10 * 60_000;
/** Progress is recorded after this many messages (and at the start and the end). */
const PROGRESS_EVERY = 20;

export interface RebuildResult {
  /** Messages read again. */
  read: number;
  /** Of those, stored now (new, or an order at last). */
  stored: number;
  /** Orders whose messages were re-read. */
  reparsed: number;
  /** Why the mailbox could not be read (also the source's `lastError`). */
  error?: string;
}

/**
 * Starts a rebuild in the background. Resolves true once it holds the source's rebuild lease
 * (it runs on after that), false when a rebuild of the source is already running.
 */
export function startRebuild(
  deps: IntakeDeps,
  userId: string,
  source: StoredEmailSource,
  sinceDays: number,
): Promise<boolean> {
  const started = Promise.withResolvers<boolean>();
  deps.background.run("mailbox rebuild", async () => {
    try {
      const ran = await withLease(
        deps.kv,
        `email-rebuild:${source.id}`,
        REBUILD_MS + 60_000,
        deps.now,
        async () => {
          started.resolve(true);
          const result = await rebuildSource(deps, userId, source, sinceDays);
          deps.log.info("mailbox rebuild done", { sourceId: source.id, ...result });
        },
      );
      if (!ran) started.resolve(false);
    } catch (err) {
      started.reject(err);
      throw err;
    }
  });
  return started.promise;
}

export async function rebuildSource(
  deps: IntakeDeps,
  userId: string,
  source: StoredEmailSource,
  sinceDays: number,
): Promise<RebuildResult> {
  const signal = AbortSignal.any([deps.background.signal, AbortSignal.timeout(REBUILD_MS)]);
  const since = sinceDaysStart(sinceDays, deps.now());
  const result: RebuildResult = { read: 0, stored: 0, reparsed: 0 };
  const startedAt = new Date(deps.now()).toISOString();
  const progress = (more: Partial<RebuildProgress> = {}) =>
    saveRebuildProgress(deps.kv, userId, source.id, {
      startedAt,
      sinceDays,
      read: result.read,
      stored: result.stored,
      ...more,
    });
  await progress();
  const templates = await customTemplatesOf(deps.kv, userId);
  const orders = new Set<string>();
  const reread = async (raw: Uint8Array) => {
    const mail: IncomingMail = { userId, raw, source };
    const outcome = await rereadMail(deps.kv, mail, { ...mailOptions(deps), templates });
    result.read++;
    if (outcome.kind === "stored") result.stored++;
    else if (outcome.orderId) orders.add(outcome.orderId);
    if (result.read % PROGRESS_EVERY === 0) await progress();
  };
  if (source.kind === "imap") {
    try {
      await rereadMailbox(deps, source, since, signal, reread);
    } catch (err) {
      if (!(err instanceof MailboxError)) throw err;
      if (!signal.aborted) result.error = err.message;
    }
    await changeEmailSource(
      deps.kv,
      userId,
      source.id,
      (s) => compact({ ...s, lastError: result.error }),
    );
  } else {
    await rereadStored(deps, userId, source, since, signal, reread);
  }
  result.reparsed =
    (await reparseOrders(deps.kv, userId, [...orders], deps.now(), deps.emailReader))
      .reparsed;
  await progress({
    reparsed: result.reparsed,
    finishedAt: new Date(deps.now()).toISOString(),
    ...(result.error ? { error: result.error } : {}),
  });
  return result;
}

/** The mailbox's messages received since `since` (the newest ones), oldest first. */
async function rereadMailbox(
  deps: IntakeDeps,
  source: StoredEmailSource,
  since: number,
  signal: AbortSignal,
  reread: (raw: Uint8Array) => Promise<void>,
) {
  const session = await MailboxSession.open(await loginOf(deps, source, signal), signal);
  try {
    const uids = (await session.uids(1, undefined, new Date(since))).slice(-MAX_REBUILD_MESSAGES);
    for await (const batch of session.messages(uids)) {
      for (const message of batch) await reread(message.raw);
      if (signal.aborted) return;
    }
  } finally {
    await session.close();
  }
}

/** The source's stored messages received since `since`, oldest first. */
async function rereadStored(
  deps: IntakeDeps,
  userId: string,
  source: StoredEmailSource,
  since: number,
  signal: AbortSignal,
  reread: (raw: Uint8Array) => Promise<void>,
) {
  const { items } = await listIntakeLog(deps.kv, userId, {
    sourceId: source.id,
    limit: MAX_REBUILD_MESSAGES,
  });
  const window = items.filter((e) => Date.parse(e.receivedAt) >= since).reverse();
  for (const entry of window) {
    if (signal.aborted) return;
    if (!entry.rawSize) continue; // a duplicate keeps no copy
    const raw = await getRawMessage(deps.kv, userId, entry.id);
    if (raw) await reread(raw);
  }
}
