/**
 * The built-in SMTP receiver (`SMTP_PORT`): a self-hoster points an MX record at it and mail to
 * forwarding addresses arrives with no other mail software. It takes mail only for active
 * forwarding addresses of `MAIL_DOMAIN` (anything else is refused at `RCPT TO` with 550),
 * messages up to 2 MiB (552 beyond), and answers 250 only once the message is stored for every
 * recipient (a storage failure is a 451, so the sender tries again). STARTTLS with the
 * configured certificate; no AUTH (it relays nothing). Connections (in all and per client
 * address), idle time, session lifetime, commands and recipients are bounded (`smtp_guard.ts`),
 * so one client cannot lock the others out.
 */
import type { SMTPServerSession } from "smtp-server";
import type { IntakeDeps } from "./deps.ts";
import { forwardingSlugOf, type StoredEmailSource } from "../domain/intake/email_source.ts";
import { findForwardingSource } from "../store/intake/email_sources.ts";
import { mailOptions, MAX_MAIL_BYTES, receiveMail } from "./mail.ts";
import { GuardedSmtpServer, SMTP_LIMITS, type SmtpLimits } from "./smtp_guard.ts";
import { activity } from "../lib/activity.ts";
import { metrics, watchGauge } from "../lib/metrics.ts";
import { withSpan } from "../lib/tracing.ts";

export interface SmtpReceiverOptions {
  port: number;
  host: string;
  /** PEM certificate chain and key: STARTTLS is offered with them. */
  tls?: { cert: string; key: string };
  /** Bounds per client and session; `SMTP_LIMITS` for what is not given. */
  limits?: Partial<SmtpLimits>;
}

export interface SmtpReceiver extends AsyncDisposable {
  port: number;
  /** Stops accepting; open sessions get a few seconds to finish. */
  close(): Promise<void>;
}

/** Recipients of one message, at most (more are answered 452). */
export const MAX_RECIPIENTS = 50;
/** How long open sessions may go on once the receiver closes. */
const CLOSE_GRACE_MS = 5_000;

type Target = { userId: string; source: StoredEmailSource };

/** An SMTP reply with its code (smtp-server sends `responseCode` and the message). */
function reply(code: number, message: string): Error {
  metrics.smtpRefusal(code);
  return Object.assign(new Error(message), { responseCode: code });
}

export async function startSmtpReceiver(
  deps: IntakeDeps,
  options: SmtpReceiverOptions,
): Promise<SmtpReceiver> {
  // The recipients accepted so far, per session (dropped when the session ends).
  const targets = new Map<string, Map<string, Target>>();
  const server: GuardedSmtpServer = new GuardedSmtpServer({
    name: deps.config.mailDomain,
    banner: "order intake",
    size: MAX_MAIL_BYTES,
    authOptional: true,
    disabledCommands: options.tls ? ["AUTH"] : ["AUTH", "STARTTLS"],
    hideSTARTTLS: !options.tls,
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert } : {}),
    disableReverseLookup: true,
    closeTimeout: CLOSE_GRACE_MS,
    logger: false,
    onConnect(_session, callback) {
      metrics.smtpSession();
      callback();
    },
    onMailFrom(_address, session, callback) {
      // A new transaction on the same connection starts with no recipients.
      targets.delete(session.id);
      callback();
    },
    onRcptTo(address, session, callback) {
      const accepted = targets.get(session.id) ?? new Map<string, Target>();
      if (accepted.size >= MAX_RECIPIENTS) {
        return callback(reply(452, "Too many recipients"));
      }
      const slug = forwardingSlugOf(address.address, deps.config.mailDomain);
      (slug ? findForwardingSource(deps.kv, slug) : Promise.resolve(null)).then((target) => {
        if (!target) {
          return callback(
            server.failedRecipient(session.id)
              ? reply(421, "Too many unknown recipients, closing")
              : reply(550, "No such forwarding address here"),
          );
        }
        accepted.set(target.source.id, target);
        targets.set(session.id, accepted);
        callback();
      }, () => callback(reply(451, "Temporary failure, try again later")));
    },
    onData(stream, session, callback) {
      const chunks: Uint8Array[] = [];
      let size = 0;
      stream.on("data", (chunk: Uint8Array) => {
        size += chunk.byteLength;
        // Past the limit the rest is read (the client is still sending) and dropped.
        if (size <= MAX_MAIL_BYTES) chunks.push(chunk);
      });
      stream.on("end", () => {
        if (stream.sizeExceeded || size > MAX_MAIL_BYTES) {
          return callback(reply(552, "Message too large (limit 2 MiB)"));
        }
        // One trace per message: its reading and each recipient's commit are its children.
        const recipients = [...(targets.get(session.id)?.values() ?? [])];
        withSpan(
          "smtp.message",
          { "email.bytes": size, "smtp.recipients": recipients.length },
          () => deliver(deps, recipients, concat(chunks, size)),
        )
          .then(
            (stored) =>
              stored > 0
                ? callback(null, "Stored")
                : callback(reply(550, "No such forwarding address here")),
            (err) => {
              deps.log.error("smtp delivery failed", {
                error: err instanceof Error ? err.message : String(err),
              });
              callback(reply(451, "Temporary failure, try again later"));
            },
          );
      });
    },
    onClose(session: SMTPServerSession) {
      targets.delete(session.id);
    },
  }, { ...SMTP_LIMITS, ...options.limits });
  server.on("error", (err: Error) => deps.log.warn("smtp receiver error", { error: err.message }));
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.server.address() as { port: number };
  let listening = true;
  watchGauge("smtp_receiver_up", () => listening ? 1 : 0);
  activity.smtpReceiver(true, port);
  const close = () => {
    listening = false;
    activity.smtpReceiver(false, port);
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { port, close, [Symbol.asyncDispose]: close };
}

/** Stores the message for every recipient; how many workspaces still exist to take it. */
async function deliver(deps: IntakeDeps, recipients: Target[], raw: Uint8Array): Promise<number> {
  let stored = 0;
  for (const { userId, source } of recipients) {
    const result = await receiveMail(deps.kv, { userId, raw, source }, mailOptions(deps));
    if (result.received.outcome !== "account_gone") stored++;
  }
  return stored;
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(Math.min(size, MAX_MAIL_BYTES));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * The receiver as the configuration says (`SMTP_PORT` unset: none), certificate and key read
 * from their files.
 */
export async function smtpReceiverFromConfig(deps: IntakeDeps): Promise<SmtpReceiver | null> {
  const { port, host, tlsCertFile, tlsKeyFile } = deps.config.smtpReceiver;
  if (port === undefined) return null;
  const tls = tlsCertFile && tlsKeyFile
    ? { cert: await Deno.readTextFile(tlsCertFile), key: await Deno.readTextFile(tlsKeyFile) }
    : undefined;
  const receiver = await startSmtpReceiver(deps, { port, host, tls });
  deps.log.info("smtp receiver listening", { hostname: host, port: receiver.port, tls: !!tls });
  return receiver;
}
