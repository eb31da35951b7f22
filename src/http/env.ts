import type { Config } from "../config.ts";
import type { Logger } from "../lib/log.ts";
import type { Persistence } from "../store/kv.ts";
import type { ApiKeyUseRecorder } from "../store/api_key_use.ts";
import type { OrderSearch } from "../store/order_search.ts";
import type { BackgroundTasks } from "../lib/background.ts";
import type { Mailer } from "../net/mailer.ts";
import type { AtlasVerifier } from "../net/atlas.ts";
import type { RateLimits } from "./rate_limit.ts";
import type { SecretBox } from "../lib/secret_box.ts";
import type { Outbound } from "../net/outbound.ts";
import type { EventTransport } from "../events/transport.ts";
import type { ClientAddress } from "./client_ip.ts";

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
  /** In-process search over orders (`q`), kept in step with KV before every search. */
  orderSearch: OrderSearch;
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
  /** How committed events reach delivery: the KV queue, or an outbox where KV has none. */
  events: EventTransport;
}

/** Who is calling: set by the bearer-token middleware. */
export interface Principal {
  userId: string;
  kind: "session" | "apiKey";
  /** Session token hash or API key id: what `DELETE /api/auth/session` or revocation ends. */
  credentialId: string;
}

export interface AppEnv {
  Variables: {
    deps: AppDeps;
    requestId: string;
    /** The request body as text when it did not parse as a JSON object. */
    rawBody?: string;
    auth: Principal;
  };
}
