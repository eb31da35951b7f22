import { RateLimits } from "./lib/rate_limits.ts";
import { ClientAddress } from "./net/client_address.ts";
import { createLogger, type Logger } from "./lib/log.ts";
import { ApiKeyUseRecorder } from "./store/account/api_key_use.ts";
import { InsightSumCache } from "./store/insights/cache.ts";
import { BackgroundTasks } from "./lib/background.ts";
import { createMailer, type Mailer } from "./vendors/mailer.ts";
import { type AtlasVerifier, createAtlasVerifier } from "./vendors/atlas.ts";
import { type Config, hasQueues, type Persistence, persistenceOf } from "./config.ts";
import type { SecretBox } from "./lib/secret_box.ts";
import { secretBoxFor } from "./secrets.ts";
import { Outbound } from "./net/outbound.ts";
import { dnsResolver, type Resolver } from "./net/resolver.ts";
import { EventBus } from "./events/bus.ts";
import type { Events } from "./events/events.ts";
import { OUTBOX, QUEUE } from "./events/transport.ts";
import { ClaimWriter } from "./store/webhooks/attempts.ts";
import { OutcomeWriter } from "./store/webhooks/outcomes.ts";
import { AnswerJournal } from "./store/webhooks/answers.ts";
import { type CarrierOptions, Carriers } from "./tracking/client.ts";
import { type BillingClient, createBillingClient } from "./vendors/stripe.ts";
import { createEmailReader, type EmailReader } from "./intake/email/readers.ts";

/** Longest one email may take to read before its reader is replaced and it is unreadable. */
const EMAIL_READ_TIMEOUT_MS = 10_000;

/** Everything a request handler may use; built once by main.ts, or per test. */
export interface AppDeps {
  kv: Deno.Kv;
  config: Config;
  log: Logger;
  persistence: Persistence;
  rateLimits: RateLimits;
  /** Who the client is: `X-Forwarded-For` as `TRUSTED_PROXIES` says to read it. */
  clientAddress: ClientAddress;
  apiKeyUse: ApiKeyUseRecorder;
  /** Insight sums read recently, used while the workspace's order revision stands. */
  insightSums: InsightSumCache;
  /** Work requests start without waiting (mail); drained at shutdown. */
  background: BackgroundTasks;
  mailer: Mailer;
  /** Sign-in-service token checks; undefined when ATLAS_ISSUER is unset. */
  atlas?: AtlasVerifier;
  startedAt: number;
  /** The clock; tests move it. */
  now: () => number;
  /** Seals secrets at rest; null where none can exist (remote KV without SECRETS_KEY). */
  secrets: SecretBox | null;
  /** Every outbound request: the private-address guard and sends pinned to checked addresses. */
  outbound: Outbound;
  /** The event path: read it off here (see {@link Events}). */
  events: Events;
  /** Carrier tracking APIs: credentials, budgets, token caches, pacing. */
  carriers: Carriers;
  /** The billing provider; null without STRIPE_SECRET_KEY (billing answers 503). */
  billing: BillingClient | null;
  /** Where email is read: reader workers (`EMAIL_READERS`), or this thread. */
  emailReader: EmailReader;
}

export interface DepsInput {
  kv: Deno.Kv;
  config: Config;
  persistence: Persistence;
  log?: Logger;
  now?: () => number;
  /** Secret encryption; by default from `SECRETS_KEY`, the key file or an ephemeral key. */
  secrets?: SecretBox | null;
  /** Outbound requests: name resolution, deadline, extra TLS roots (tests set their own). */
  outbound?: { resolver?: Resolver; timeoutMs?: number; ca?: string[] };
  /** How committed events travel; by default `EVENTS_TRANSPORT`, else as the store allows. */
  events?: "queue" | "outbox";
  /** Carrier call pacing and deadline (tests and the benchmark shorten them). */
  carriers?: CarrierOptions;
}

/** Wires the runtime services every request may use. */
export function createDeps(input: DepsInput): AppDeps {
  const log = input.log ?? createLogger(input.config.logLevel);
  // KV Connect and Deno Deploy have no queues: there, events wait in an outbox (decided once).
  const transport = input.events ?? input.config.eventsTransport ??
    (hasQueues(input.persistence) ? "queue" : "outbox");
  const chosen = transport === "outbox" ? OUTBOX : QUEUE;
  const now = input.now ?? Date.now;
  const events: Events = {
    transport: chosen,
    bus: new EventBus(chosen),
    claims: new ClaimWriter(input.kv),
    outcomes: new OutcomeWriter(input.kv),
    // Beside the KV file the configuration names (a test may open another store than that).
    answers: new AnswerJournal(
      input.persistence === "sqlite" && persistenceOf(input.config.kvPath) === "sqlite"
        ? `${input.config.kvPath}-answers`
        : null,
      now,
    ),
  };
  return {
    kv: input.kv,
    config: input.config,
    persistence: input.persistence,
    log,
    rateLimits: new RateLimits(),
    clientAddress: new ClientAddress(input.config.trustedProxies),
    apiKeyUse: new ApiKeyUseRecorder(input.kv),
    insightSums: new InsightSumCache(input.kv),
    background: new BackgroundTasks(log),
    mailer: createMailer(input.config.smtp, log),
    atlas: createAtlasVerifier(input.config.atlas),
    startedAt: Date.now(),
    now,
    secrets: input.secrets !== undefined
      ? input.secrets
      : secretBoxFor(input.config, input.persistence),
    outbound: new Outbound({
      resolver: input.outbound?.resolver ?? dnsResolver,
      allowed: input.config.allowedPrivateAddresses,
      timeoutMs: input.outbound?.timeoutMs,
      ca: input.outbound?.ca,
    }),
    events,
    carriers: new Carriers(
      input.kv,
      input.config.carriers,
      input.config.tracking.dailyBudget,
      log,
      now,
      input.carriers,
    ),
    billing: createBillingClient(input.config.stripe),
    emailReader: createEmailReader({
      size: input.config.emailReaders,
      timeoutMs: EMAIL_READ_TIMEOUT_MS,
      log,
    }),
  };
}

/** Waits for background writes so KV can be closed; ends kept-alive outbound connections. */
export async function drainDeps(deps: AppDeps): Promise<void> {
  deps.background.stop();
  await deps.background.drain();
  await deps.apiKeyUse.flush();
  deps.outbound.close();
  deps.emailReader.close();
  deps.events.answers.close();
}
