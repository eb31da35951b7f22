/**
 * The one line a person reads when the service starts (besides the JSON log): where to open
 * it, what links say, whether mail can arrive and leave, which carriers are set up, where the
 * data lives. Written to stderr so stdout stays one JSON object a line.
 */
import { type Capabilities, capabilities } from "./capabilities.ts";
import type { Config } from "./config.ts";
import type { AppDeps } from "./deps.ts";
import {
  checkSecretsKey,
  SECRETS_MISMATCH_TEXT,
  type SecretsKeyState,
} from "./store/secrets_check.ts";

export interface StartupFacts {
  /** Where the listener is (`0.0.0.0` and `::` read as localhost). */
  hostname: string;
  port: number;
  /** Names of the carriers with credentials. */
  carriers: string[];
  /** Whether the secrets key opens this KV's secrets (checkSecretsAtStart). */
  secrets?: SecretsKeyState;
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
    ...(facts.secrets === "mismatch"
      ? ["SECRETS KEY DOES NOT MATCH THIS DATA FILE (see the log)"]
      : []),
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

/**
 * Checks the secrets key against this KV (writing the check on a first start). A mismatch is
 * said loudly, to the log and to the person starting the service; the service still starts,
 * and the dashboard's webhook and mailbox screens say it too.
 */
export async function checkSecretsAtStart(deps: AppDeps): Promise<SecretsKeyState> {
  const state = await checkSecretsKey(deps.kv, deps.secrets, { write: true });
  if (state === "mismatch") {
    deps.log.error("secrets key does not open this KV's secrets", {
      reason: SECRETS_MISMATCH_TEXT,
    });
    try {
      console.error(`\n*** ${SECRETS_MISMATCH_TEXT}\n`);
    } catch {
      // Nothing to tell.
    }
  }
  return state;
}
