/**
 * Mailbox polling: each tick of the cron job reads what is new in every due imap source, one
 * process per source at a time (a KV lease), and feeds it to the mail intake path.
 */
import type { IntakeDeps } from "../deps.ts";
import {
  cursorFor,
  type MailboxCursor,
  mailboxIdentity,
  pollDue,
  type StoredEmailSource,
} from "../../domain/intake/email_source.ts";
import { compact } from "../../lib/compact.ts";
import { withLease } from "../../store/lease.ts";
import {
  changeEmailSource,
  forgetMailboxToPoll,
  getEmailSource,
  getMailboxCursor,
  listMailboxesToPoll,
  saveMailboxCursor,
} from "../../store/intake/email_sources.ts";
import { customTemplatesOf, mailOptions, receiveMail, rereadMail } from "../mail.ts";
import { MailboxError, mailboxFailure, type MailboxLogin, MailboxSession } from "./client.ts";
import { loginOf, rebindPassword } from "./host.ts";
import { activity } from "../../lib/activity.ts";
import { metrics } from "../../lib/metrics.ts";
import { annotate, withSpan } from "../../lib/tracing.ts";

/** Bounds of one tick. */
export interface PollLimits {
  /** Messages one source reads per tick (the rest waits for the next tick). */
  maxMessages: number;
  /** How long one source's session may last, connecting included. */
  sessionMs: number;
  /** Sources polled at once. */
  concurrency: number;
}

export const POLL_LIMITS: PollLimits = { maxMessages: 1000, sessionMs: 120_000, concurrency: 4 };

export interface PollResult {
  /** Messages stored (created, merged, logged) this time. */
  read: number;
  /** Messages over the size limit, never read. */
  tooLarge: number;
  /** More is waiting: the message bound or the deadline stopped this poll. */
  more: boolean;
  /** The source's new `lastError`, when the poll failed. */
  error?: string;
}

/** "Check now" reads less and waits less than a tick: the person is waiting for the answer. */
export const CHECK_NOW_LIMITS: PollLimits = { maxMessages: 200, sessionMs: 30_000, concurrency: 1 };

/** The lease a poll of one source holds, whoever runs it (the job or "Check now"). */
const pollLease = (sourceId: string) => `imap-poll:${sourceId}`;

/**
 * "Check now": one poll of a mailbox at once, under the same lease as the job's (so never two
 * sessions on one mailbox); "busy" while another poll of it runs.
 */
export async function checkMailboxNow(
  deps: IntakeDeps,
  userId: string,
  source: StoredEmailSource,
  signal: AbortSignal,
): Promise<PollResult | "busy"> {
  let result: PollResult | undefined;
  const ran = await withLease(
    deps.kv,
    pollLease(source.id),
    CHECK_NOW_LIMITS.sessionMs + 60_000,
    deps.now,
    async () => {
      result = await pollMailbox(deps, userId, source, signal, CHECK_NOW_LIMITS);
    },
  );
  return ran && result ? result : "busy";
}

/** The job's one run: every due source, a few at a time, each under its own lease. */
export async function pollMailboxes(
  deps: IntakeDeps,
  signal: AbortSignal,
  limits: PollLimits = POLL_LIMITS,
): Promise<{ polled: number; failed: number }> {
  const intervalMs = deps.config.imapPollMinutes * 60_000;
  const started = deps.now();
  const due: { userId: string; source: StoredEmailSource }[] = [];
  for (const ref of await listMailboxesToPoll(deps.kv)) {
    const source = await getEmailSource(deps.kv, ref.userId, ref.sourceId);
    if (!source) await forgetMailboxToPoll(deps.kv, ref);
    else if (pollDue(source, started, intervalMs)) due.push({ userId: ref.userId, source });
  }
  // The longest-waiting first, so a backlog is worked through across ticks.
  due.sort((a, b) => (a.source.lastPolledAt ?? "").localeCompare(b.source.lastPolledAt ?? ""));
  const counts = { polled: 0, failed: 0 };
  const worker = async () => {
    for (let next = due.shift(); next; next = due.shift()) {
      // Sources not started before the next tick are that tick's.
      if (signal.aborted || deps.now() - started > intervalMs * 0.9) return;
      try {
        await withLease(
          deps.kv,
          pollLease(next.source.id),
          limits.sessionMs + 60_000,
          deps.now,
          async () => {
            // Read again under the lease: another process may have polled it meanwhile.
            const source = await getEmailSource(deps.kv, next.userId, next.source.id);
            if (!source || !pollDue(source, deps.now(), intervalMs)) return;
            const result = await withSpan("imap.poll", {}, async () => {
              const polled = await pollMailbox(deps, next.userId, source, signal, limits);
              annotate({ "imap.read": polled.read, "imap.failed": Boolean(polled.error) });
              return polled;
            });
            counts.polled++;
            if (result.error) counts.failed++;
            metrics.imapPoll(result.error ? "failed" : "ok");
            activity.imapPoll(result.error ? "failed" : "ok", deps.now());
          },
        );
      } catch (err) {
        // Storage failed for this source; the others go on.
        counts.failed++;
        metrics.imapPoll("error");
        activity.imapPoll("error", deps.now());
        deps.log.error("mailbox poll failed", {
          sourceId: next.source.id,
          error: err instanceof Error ? err.message : String(err),
        });
      }
    }
  };
  await Promise.all(Array.from({ length: limits.concurrency }, worker));
  return counts;
}

/**
 * Reads what is new in one mailbox: checks the host again (DNS may have changed), signs in,
 * and reads the messages after the cursor (a new source or a new UIDVALIDITY: the last 30
 * days, as history without events), at most `maxMessages`, within `sessionMs`. The cursor
 * moves after every batch; `lastPolledAt` and `lastError` are recorded on the source.
 */
export async function pollMailbox(
  deps: IntakeDeps,
  userId: string,
  source: StoredEmailSource,
  stop: AbortSignal,
  limits: PollLimits = POLL_LIMITS,
): Promise<PollResult> {
  const signal = AbortSignal.any([stop, AbortSignal.timeout(limits.sessionMs)]);
  const result: PollResult = { read: 0, tooLarge: 0, more: false };
  let login: MailboxLogin | undefined;
  let session: MailboxSession | undefined;
  let rebound: string | null = null;
  try {
    login = await loginOf(deps, source, signal);
    session = await MailboxSession.open(login, signal);
    rebound = await rebindPassword(deps, source, login.password);
    try {
      await readNew(deps, userId, source, session, signal, limits, result);
    } finally {
      await session.close();
    }
    if (signal.aborted) result.more = true;
  } catch (err) {
    if (!(err instanceof MailboxError)) throw err;
    if (stop.aborted || (signal.aborted && session)) {
      // Shutdown, or the deadline cut a session that was reading: the rest is next time's.
      result.more = true;
    } else if (signal.aborted) {
      result.error = mailboxFailure(
        { code: "ETIMEDOUT" },
        login ?? { host: source.host ?? "", port: source.port ?? 993 },
      );
    } else result.error = err.message;
  }
  await changeEmailSource(deps.kv, userId, source.id, (s) =>
    compact({
      ...s,
      lastPolledAt: new Date(deps.now()).toISOString(),
      lastError: result.error,
      // Unless the password was set again meanwhile (a PATCH moving the source sets it).
      sealedPassword: rebound && s.sealedPassword === source.sealedPassword
        ? rebound
        : s.sealedPassword,
    }));
  if (result.error) {
    deps.log.info("mailbox poll failed", { sourceId: source.id, error: result.error });
  }
  return result;
}

async function readNew(
  deps: IntakeDeps,
  userId: string,
  source: StoredEmailSource,
  session: MailboxSession,
  signal: AbortSignal,
  limits: PollLimits,
  result: PollResult,
) {
  const cursor: MailboxCursor = {
    ...cursorFor(await getMailboxCursor(deps.kv, userId, source.id), {
      identity: mailboxIdentity(source),
      uidValidity: session.uidValidity,
      uidNext: session.uidNext,
    }, deps.now()),
  };
  const history = cursor.lastUid < cursor.historyUntil
    ? await session.uids(cursor.lastUid + 1, cursor.historyUntil, new Date(cursor.historySince))
    : [];
  const fresh = await session.uids(Math.max(cursor.lastUid, cursor.historyUntil) + 1);
  const all = [...history, ...fresh];
  const uids = all.slice(0, limits.maxMessages);
  result.more = all.length > uids.length;
  // Nothing to read but a new cursor (first poll of an empty window): remember it.
  const last = uids.at(-1) ?? cursor.historyUntil;
  const templates = await customTemplatesOf(deps.kv, userId);
  const skipped: number[] = [];
  const options = { ...mailOptions(deps), templates };
  for await (const batch of session.messages(uids, skipped)) {
    for (const { uid, raw } of batch) {
      const mail = { userId, raw, source };
      const at = { ...options, now: deps.now() };
      const received = uid <= cursor.historyUntil
        ? await rereadMail(deps.kv, mail, at)
        : { kind: "stored" as const, result: await receiveMail(deps.kv, mail, at) };
      if (received.kind === "stored" && received.result.received.outcome === "account_gone") {
        return;
      }
      result.read++;
    }
    cursor.lastUid = Math.max(cursor.lastUid, batch.at(-1)?.uid ?? 0, ...skipped);
    if (!(await saveMailboxCursor(deps.kv, userId, source.id, cursor))) return;
    if (signal.aborted) return;
  }
  result.tooLarge = skipped.length;
  cursor.lastUid = Math.max(cursor.lastUid, last);
  await saveMailboxCursor(deps.kv, userId, source.id, cursor);
}
