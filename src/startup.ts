/**
 * The one line a person reads when the service starts (besides the JSON log): where to open
 * it, what links say, whether mail can arrive and leave, which carriers are set up, where the
 * data lives. Written to stderr so stdout stays one JSON object a line.
 */
import { type Capabilities, capabilities } from "./capabilities.ts";
import type { Config } from "./config.ts";

export interface StartupFacts {
  /** Where the listener is (`0.0.0.0` and `::` read as localhost). */
  hostname: string;
  port: number;
  /** Names of the carriers with credentials. */
  carriers: string[];
}

function openUrl(hostname: string, port: number): string {
  const host = hostname === "0.0.0.0" || hostname === "::"
    ? "localhost"
    : hostname.includes(":")
    ? `[${hostname}]`
    : hostname;
  return `http://${host}:${port}`;
}

function mailPart(mail: Capabilities["mail"]): string {
  const ways = [
    mail.smtpPort !== undefined ? `SMTP receiver on port ${mail.smtpPort}` : "",
    mail.mailWorker ? "mail worker (INBOUND_MAIL_KEY)" : "",
  ].filter(Boolean).join(" and ");
  const arrive = mail.canArrive
    ? `forwarded mail arrives at @${mail.domain} through ${ways}`
    : `forwarded mail cannot arrive at @${mail.domain} (set ${mail.missing.join(" and ")})`;
  return `${arrive}; IMAP mailboxes checked every ${mail.imapPollMinutes} min`;
}

/** The line itself, pure for tests. */
export function startupLine(config: Config, facts: StartupFacts): string {
  const caps = capabilities(config);
  const data = config.kvPath ?? "the Deno Deploy KV database";
  return [
    `Order tracker is up: open ${openUrl(facts.hostname, facts.port)}`,
    `links use ${caps.baseUrl}${
      caps.baseUrlLocal ? " (set BASE_URL for links others can open)" : ""
    }`,
    mailPart(caps.mail),
    caps.outgoingMail
      ? "outgoing mail on"
      : "outgoing mail off (SMTP_URL unset: messages go to the log)",
    facts.carriers.length > 0
      ? `live tracking: ${facts.carriers.join(", ")}`
      : "live tracking: no carrier credentials",
    `data: ${data}`,
  ].join(" · ");
}

/** Writes the line; a closed stderr must not stop the start. */
export function announce(config: Config, facts: StartupFacts) {
  try {
    console.error(startupLine(config, facts));
  } catch {
    // Nothing to tell.
  }
}

/** Names of the carriers this deployment has credentials for, each name once. */
export function configuredCarrierNames(
  carriers: { list(): { name: string; configured: boolean }[] },
): string[] {
  return [...new Set(carriers.list().filter((c) => c.configured).map((c) => c.name))];
}
