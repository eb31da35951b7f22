/**
 * What keeps one SMTP client from locking the others out of the receiver. smtp-server bounds
 * connections in all (`maxClients`) and idle time (`socketTimeout`), but an idle limit is reset
 * by every command, so a client holding every slot with a NOOP now and then shut everyone else
 * out. Here, besides those: connections at once per client address (refused with 421 as they
 * are accepted, before they take a slot), an absolute session lifetime, and a number of
 * commands per session; refused recipients per session are counted by the receiver's RCPT
 * handler (`SessionLimits.failedRecipient`).
 */
import type { Socket } from "node:net";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";
import { clientKey } from "../net/address.ts";
import { metrics } from "../lib/metrics.ts";

export interface SmtpLimits {
  /** Connections served at once in all; more are answered 421 and closed. */
  maxClients: number;
  /** Connections at once from one client address (an IPv6 /64); more are answered 421. */
  maxClientsPerAddress: number;
  /** A connection idle this long is answered 421 and closed. */
  idleTimeoutMs: number;
  /** However busy, a session is answered 421 and closed this long after it was accepted. */
  sessionMs: number;
  /** Commands one session may send; the next is answered 421 and the session closed. */
  maxCommands: number;
  /** Recipients one session may have refused (550); the next refusal is a 421 and the end. */
  maxFailedRecipients: number;
}

export const SMTP_LIMITS: SmtpLimits = {
  maxClients: 100,
  maxClientsPerAddress: 10,
  idleTimeoutMs: 60_000,
  sessionMs: 10 * 60_000,
  maxCommands: 500,
  maxFailedRecipients: 20,
};

/** A refused connection has this long to read its 421 before its socket is dropped. */
const REFUSAL_LINGER_MS = 1_000;

type ConnectArgs = Parameters<SMTPServer["connect"]>;

/** An smtp-server whose connections are bounded per client and per session (see above). */
export class GuardedSmtpServer extends SMTPServer {
  readonly limits: SmtpLimits;
  readonly #perClient = new Map<string, number>();
  readonly #failed = new Map<string, number>();

  /** What ends with each open session (its lifetime timer, its client's count). */
  readonly #open = new Map<string, () => void>();

  constructor(options: SMTPServerOptions, limits: SmtpLimits) {
    super({ ...options, maxClients: limits.maxClients, socketTimeout: limits.idleTimeoutMs });
    this.limits = limits;
    // The session ends with its connection (its TLS socket, after STARTTLS).
    const onClose = this.onClose;
    this.onClose = (session, callback) => {
      this.#end(session.id);
      onClose.call(this, session, callback);
    };
  }

  /** Counts a refused recipient of a session; true once the session has had too many. */
  failedRecipient(sessionId: string): boolean {
    const failed = (this.#failed.get(sessionId) ?? 0) + 1;
    this.#failed.set(sessionId, failed);
    return failed > this.limits.maxFailedRecipients;
  }

  override connect(socket: ConnectArgs[0], socketOptions?: ConnectArgs[1]): void {
    const client = clientKey(socketOptions?.remoteAddress ?? socket.remoteAddress ?? "");
    const open = this.#perClient.get(client) ?? 0;
    if (open >= this.limits.maxClientsPerAddress) return refuse(socket);
    this.#perClient.set(client, open + 1);
    // The session's id (smtp-server passes one; a caller of connect() may not): how it is found.
    const id = socketOptions?.id || crypto.randomUUID();
    super.connect(socket, { ...socketOptions, id });
    const connection = [...this.connections].find((c) => c.id === id);
    const lifetime = setTimeout(
      () => connection?.send(421, "Session too long, closing; try again"),
      this.limits.sessionMs,
    );
    this.#open.set(id, () => {
      clearTimeout(lifetime);
      const left = (this.#perClient.get(client) ?? 1) - 1;
      if (left > 0) this.#perClient.set(client, left);
      else this.#perClient.delete(client);
      this.#failed.delete(id);
    });
    if (connection) this.#countCommands(connection);
    // A socket that closes before its session starts never reaches onClose.
    socket.once("close", () => this.#end(id));
  }

  #end(id: string) {
    this.#open.get(id)?.();
    this.#open.delete(id);
  }

  /**
   * Every command line passes here (after STARTTLS too); past the limit: 421, closed.
   * smtp-server has no hook for commands other than MAIL, RCPT and DATA, so the connection's
   * dispatcher (typed in its declarations, pinned version) is wrapped; a test holds it to it.
   */
  #countCommands(connection: GuardedConnection) {
    const next = connection._onCommand.bind(connection);
    let commands = 0;
    connection._onCommand = (command, callback) => {
      if (++commands > this.limits.maxCommands) {
        return connection.send(421, "Too many commands in one session, closing");
      }
      next(command, callback);
    };
  }
}

type GuardedConnection = GuardedSmtpServer["connections"] extends Set<infer C> ? C : never;

/** 421 to a connection over its client's cap, before it becomes a session. */
function refuse(socket: Socket) {
  metrics.smtpRefusal(421);
  socket.on("error", () => {});
  socket.end("421 Too many connections from your address, try again later\r\n");
  const linger = setTimeout(() => socket.destroy(), REFUSAL_LINGER_MS);
  socket.once("close", () => clearTimeout(linger));
}
