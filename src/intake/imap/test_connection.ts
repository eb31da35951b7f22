/**
 * "Test connection": signs in to a mailbox and selects its folder, then logs out, within a
 * few seconds, and says what went wrong in the owner's words. The same host rule and session
 * as polling (host.ts, client.ts), so a test that passes is a poll that connects.
 */
import type { IntakeDeps } from "../deps.ts";
import type { MailboxTarget } from "../../domain/intake/email_source_changes.ts";
import { checkMailboxHost } from "./host.ts";
import { MailboxError, mailboxFailure, MailboxSession } from "./client.ts";

/** A test answers within this long, whatever the server does. */
export const TEST_CONNECTION_MS = 10_000;

/** Where to sign in (domain/intake/email_source_changes.ts `MailboxTarget`) and with which password. */
export type MailboxSettings = MailboxTarget & { password: string };

export type ConnectionTest =
  | { ok: true; mailbox: string }
  /** `field`: the setting at fault when it is known. */
  | { ok: false; field?: "host" | "tls"; error: string };

export async function testMailboxConnection(
  deps: IntakeDeps,
  settings: MailboxSettings,
  timeoutMs = TEST_CONNECTION_MS,
): Promise<ConnectionTest> {
  const signal = AbortSignal.timeout(timeoutMs);
  const where = { host: settings.host, port: settings.port };
  const check = await checkMailboxHost(deps.outbound, settings.host, settings.tls, signal)
    .catch(() => null);
  if (!check) return { ok: false, error: mailboxFailure({ code: "ETIMEDOUT" }, where) };
  if (!check.ok) return { ok: false, field: check.field, error: check.error };
  try {
    const session = await MailboxSession.open({
      ...settings,
      address: check.address,
      ca: deps.outbound.tlsRoots,
    }, signal);
    await session.close();
    return { ok: true, mailbox: settings.mailbox };
  } catch (err) {
    if (!(err instanceof MailboxError)) throw err;
    if (signal.aborted) return { ok: false, error: mailboxFailure({ code: "ETIMEDOUT" }, where) };
    return { ok: false, error: err.message };
  }
}
