/**
 * What the intake wing (mail, chat posts, mailbox polling, the SMTP receiver, rebuilds and
 * learning) uses of the app's services: a narrow type of its own, so the wing does not depend
 * on the whole `AppDeps` (which satisfies it).
 */
import type { Config } from "../config.ts";
import type { Events } from "../events/events.ts";
import type { BackgroundTasks } from "../lib/background.ts";
import type { Logger } from "../lib/log.ts";
import type { SecretBox } from "../lib/secret_box.ts";
import type { Outbound } from "../net/outbound.ts";
import type { EmailReader } from "./email/readers.ts";

export interface IntakeDeps {
  kv: Deno.Kv;
  log: Logger;
  now: () => number;
  config: Config;
  events: Events;
  /** Work started after an answer (relays, learning); drained at shutdown. */
  background: BackgroundTasks;
  /** Where email is read: reader workers, or this thread. */
  emailReader: EmailReader;
  /** Mailbox connections and chat relays: the private-address rule. */
  outbound: Outbound;
  /** Mailbox passwords are sealed. */
  secrets: SecretBox | null;
}
