/**
 * What this deployment can and cannot do, read from its configuration: whether forwarded mail
 * can arrive, whether mail can go out, billing, the base URL links use. One reading for the
 * start-up line (startup.ts) and the dashboard (`GET /api/deployment`), so both say the same.
 */
import type { Config } from "./config.ts";

export interface Capabilities {
  /** The base URL of links (bot URLs, reset links, share pages). */
  baseUrl: string;
  /** The base URL names this machine (BASE_URL unset or loopback): links work only here. */
  baseUrlLocal: boolean;
  mail: {
    /** Domain of forwarding addresses. */
    domain: string;
    /** The built-in SMTP receiver's port, when it runs. */
    smtpPort?: number;
    /** An operator mail worker may post mail (`INBOUND_MAIL_KEY` set). */
    mailWorker: boolean;
    /** Forwarded mail can reach this deployment: a receiver or worker, and a real domain. */
    canArrive: boolean;
    /** What to set so it can, when it cannot. */
    missing: string[];
    /** Connected IMAP mailboxes are checked this often. */
    imapPollMinutes: number;
  };
  /** Mail goes out (`SMTP_URL`); otherwise messages are written to the server log. */
  outgoingMail: boolean;
  /** Plans and the free-plan cap are on. */
  billing: boolean;
  /** Who may create an account (`REGISTRATION`). */
  registration: Config["registration"];
}

const LOOPBACK = /^(localhost|127\.[\d.]+|\[::1\]|0\.0\.0\.0)$/i;

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return "";
  }
}

export function capabilities(config: Config): Capabilities {
  const smtpPort = config.smtpReceiver.port;
  const mailWorker = config.inboundMailKey !== undefined;
  const domain = config.mailDomain;
  const missing: string[] = [];
  if (smtpPort === undefined && !mailWorker) missing.push("SMTP_PORT or INBOUND_MAIL_KEY");
  // Nothing on the internet delivers to `.localhost` (the default is `inbound.localhost`).
  if (domain.endsWith(".localhost")) missing.push("MAIL_DOMAIN");
  return {
    baseUrl: config.baseUrl,
    baseUrlLocal: LOOPBACK.test(hostOf(config.baseUrl)),
    mail: {
      domain,
      smtpPort,
      mailWorker,
      canArrive: missing.length === 0,
      missing,
      imapPollMinutes: config.imapPollMinutes,
    },
    outgoingMail: config.smtp.url !== undefined,
    billing: config.billingEnabled,
    registration: config.registration,
  };
}
