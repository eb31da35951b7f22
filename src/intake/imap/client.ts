/**
 * One session with a user's mailbox, through imapflow: connected to the address the host rule
 * checked (the TLS name is the host the user gave), every wait bounded, every message bounded
 * in size, and failures turned into a short message the owner can act on (`MailboxError`).
 */
import type { ImapFlow } from "imapflow";
import { MAX_MAIL_BYTES } from "../mail.ts";

export interface MailboxLogin {
  /** The checked IP address: the connection goes here and nowhere else. */
  address: string;
  port: number;
  /** Implicit TLS (993); false is plain IMAP, only for allow-listed hosts (no STARTTLS). */
  tls: boolean;
  /** The host as the user gave it: the TLS name and the wording of errors. */
  host: string;
  username: string;
  password: string;
  mailbox: string;
  /** Extra trusted roots (PEM), as `Outbound` has them. */
  ca?: string[];
}

/** A failure worth telling the source's owner: the message is the source's `lastError`. */
export class MailboxError extends Error {}

export interface MailboxMessage {
  uid: number;
  raw: Uint8Array;
}

/** Waits of one session. */
const CONNECT_MS = 15_000;
const SOCKET_IDLE_MS = 60_000;
const LOGOUT_MS = 5_000;
/** One FETCH brings at most this many messages, or this many bytes (the batch is held whole). */
const BATCH_MESSAGES = 100;
const BATCH_BYTES = 8 * 1024 * 1024;
/** UIDs per size request: a command line stays short (servers cap it, Dovecot at 64 KiB). */
const SIZES_PER_FETCH = 1000;
/** What one IMAP literal may be: a message over the limit is skipped by its size, never read. */
const MAX_LITERAL = MAX_MAIL_BYTES + 64 * 1024;

const UNTRUSTED = new Set([
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "CERT_UNTRUSTED",
]);

/** Ascending UIDs as an IMAP set, runs written as ranges: `[1, 2, 3, 7]` -> `1:3,7`. */
export function uidSet(uids: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < uids.length;) {
    let j = i;
    while (j + 1 < uids.length && uids[j + 1] === uids[j] + 1) j++;
    parts.push(j > i ? `${uids[i]}:${uids[j]}` : String(uids[i]));
    i = j + 1;
  }
  return parts.join(",");
}

/** The owner's words for what went wrong; never the password, never a stack. */
export function mailboxFailure(err: unknown, login: Pick<MailboxLogin, "host" | "port">): string {
  const e = (err ?? {}) as { code?: string; message?: string; authenticationFailed?: boolean };
  const code = String(e.code ?? "");
  const message = String(e.message ?? "");
  const where = `${login.host}:${login.port}`;
  if (e.authenticationFailed) return "Sign-in failed: the mailbox refused the username or password";
  if (UNTRUSTED.has(code)) return `TLS failure: the certificate of ${where} is not trusted`;
  if (code === "ERR_TLS_CERT_ALTNAME_INVALID") {
    return `TLS failure: the certificate of ${where} is not for ${login.host}`;
  }
  if (code === "CERT_HAS_EXPIRED") return `TLS failure: the certificate of ${where} has expired`;
  if (/^ERR_(TLS|SSL)_|CERT/.test(code) || /\b(TLS|SSL|certificate|handshake)\b/i.test(message)) {
    return `TLS failure: the secure connection to ${where} could not be set up`;
  }
  if (code === "ECONNREFUSED") return `Could not connect to ${where}: connection refused`;
  if (["ETIMEDOUT", "CONNECT_TIMEOUT", "GREETING_TIMEOUT", "ETIMEOUT"].includes(code)) {
    return `Could not connect to ${where}: no answer in time`;
  }
  if (["EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL"].includes(code)) {
    return `Could not connect to ${where}: host unreachable`;
  }
  if (code === "NoConnection" || code === "ECONNRESET" || code === "EPIPE") {
    return `The connection to ${where} was closed`;
  }
  return `The mailbox at ${where} failed${code ? ` (${code})` : ""}`;
}

/** An open, selected mailbox; `close()` logs out (or drops the connection). */
export class MailboxSession {
  private constructor(
    private readonly client: ImapFlow,
    private readonly login: MailboxLogin,
    private readonly stop: { signal: AbortSignal; drop: () => void },
    readonly uidValidity: string,
    readonly uidNext: number,
  ) {}

  /**
   * Connects, signs in and selects the mailbox read-only. `signal` ends the session at once
   * (the connection is dropped; a pending command rejects). Throws `MailboxError`.
   */
  static async open(login: MailboxLogin, signal: AbortSignal): Promise<MailboxSession> {
    // Imported at the first session: imapflow is several MB of live heap, multiplied in the
    // isolate's peak memory (docs/benchmarks.md, "Email intake memory"), and only a deployment
    // with mailboxes to poll needs it.
    const { ImapFlow: Client } = await import("imapflow");
    const client = new Client({
      host: login.address,
      port: login.port,
      secure: login.tls,
      // The name the certificate must carry; an IP literal host is checked as an address.
      ...(login.host !== login.address && !login.host.includes(":")
        ? { servername: login.host }
        : {}),
      doSTARTTLS: false,
      auth: { user: login.username, pass: login.password },
      tls: login.ca ? { ca: login.ca } : undefined,
      logger: false,
      disableAutoIdle: true,
      connectionTimeout: CONNECT_MS,
      greetingTimeout: CONNECT_MS,
      socketTimeout: SOCKET_IDLE_MS,
      maxLiteralSize: MAX_LITERAL,
      maxResponseSize: MAX_LITERAL + 1024 * 1024,
      clientInfo: { name: "order-tracker" },
    });
    // imapflow reports failures as 'error' events too; the awaited calls carry them here.
    client.on("error", () => {});
    const drop = () => client.close();
    signal.addEventListener("abort", drop, { once: true });
    try {
      if (signal.aborted) throw new MailboxError("Stopped before connecting");
      await client.connect();
    } catch (err) {
      signal.removeEventListener("abort", drop);
      client.close();
      throw err instanceof MailboxError ? err : new MailboxError(mailboxFailure(err, login));
    }
    try {
      const box = await client.mailboxOpen(login.mailbox, { readOnly: true });
      const uidNext = box.uidNext ??
        1 + ((await client.search({ all: true }, { uid: true })) || []).reduce(
            (a, b) => Math.max(a, b),
            0,
          );
      return new MailboxSession(
        client,
        login,
        { signal, drop },
        String(box.uidValidity),
        uidNext,
      );
    } catch (err) {
      signal.removeEventListener("abort", drop);
      client.close();
      if (signal.aborted) throw new MailboxError(mailboxFailure(err, login));
      const e = err as { responseStatus?: string };
      throw new MailboxError(
        e.responseStatus === "NO"
          ? `Mailbox "${login.mailbox}" not found or not readable`
          : mailboxFailure(err, login),
      );
    }
  }

  /**
   * UIDs in `first..last` (inclusive; `last` absent: to the newest), received since `since`
   * when given, ascending. (`n:*` also names the newest message when it is below `n`: dropped.)
   */
  async uids(first: number, last?: number, since?: Date): Promise<number[]> {
    if (last !== undefined && last < first) return [];
    const found = await this.#call(() =>
      this.client.search(
        { uid: `${first}:${last ?? "*"}`, ...(since ? { since } : {}) },
        { uid: true },
      )
    );
    return (found || [])
      .filter((uid) => uid >= first && (last === undefined || uid <= last))
      .sort((a, b) => a - b);
  }

  /**
   * The messages of `uids` in batches (their bytes held one batch at a time), oldest first;
   * messages over `MAX_MAIL_BYTES` are not read and come back in `skipped`.
   */
  async *messages(uids: number[], skipped: number[] = []): AsyncGenerator<MailboxMessage[]> {
    if (uids.length === 0) return;
    const sizes = new Map<number, number>();
    for (let at = 0; at < uids.length; at += SIZES_PER_FETCH) {
      const set = uidSet(uids.slice(at, at + SIZES_PER_FETCH));
      await this.#call(async () => {
        for await (const m of this.client.fetch(set, { uid: true, size: true }, { uid: true })) {
          sizes.set(m.uid, m.size ?? 0);
        }
      });
    }
    let batch: number[] = [];
    let bytes = 0;
    for (const uid of uids) {
      const size = sizes.get(uid);
      if (size === undefined) continue; // expunged meanwhile
      if (size > MAX_MAIL_BYTES) {
        skipped.push(uid);
        continue;
      }
      if (batch.length && (batch.length >= BATCH_MESSAGES || bytes + size > BATCH_BYTES)) {
        yield await this.#fetch(batch);
        batch = [];
        bytes = 0;
      }
      batch.push(uid);
      bytes += size;
    }
    if (batch.length) yield await this.#fetch(batch);
  }

  async #fetch(uids: number[]): Promise<MailboxMessage[]> {
    const out: MailboxMessage[] = [];
    await this.#call(async () => {
      const set = uidSet(uids);
      for await (const m of this.client.fetch(set, { uid: true, source: true }, { uid: true })) {
        if (!m.source) continue;
        out.push({
          uid: m.uid,
          raw: new Uint8Array(m.source.buffer, m.source.byteOffset, m.source.byteLength),
        });
      }
    });
    return out.sort((a, b) => a.uid - b.uid);
  }

  /** A command, with its failure in the owner's words. */
  async #call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      throw new MailboxError(mailboxFailure(err, this.login));
    }
  }

  /** Logs out (a server that does not answer within a few seconds is just dropped). */
  async close(): Promise<void> {
    this.stop.signal.removeEventListener("abort", this.stop.drop);
    const timer = setTimeout(() => this.client.close(), LOGOUT_MS);
    try {
      await this.client.logout();
    } catch {
      this.client.close();
    } finally {
      clearTimeout(timer);
    }
  }
}
