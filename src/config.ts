import { z } from "@hono/zod-openapi";
import { isAddressList } from "./lib/ip.ts";
import { LOG_LEVELS, type LogLevel } from "./lib/log.ts";

const bool = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");
const optionalText = z.string().trim().min(1).optional();
const addressList = z.string().refine(
  (v) => isAddressList(list(v)),
  "must be comma-separated IP addresses or CIDR ranges",
).optional();

/**
 * Where KV lives: a local SQLite file, in memory, a KV Connect URL, or the database Deno Deploy
 * assigns to the app.
 */
export type Persistence = "sqlite" | "memory" | "remote" | "deploy";

/** A path's store; no path is Deno Deploy's own database. */
export function persistenceOf(path: string | undefined): Persistence {
  if (path === undefined) return "deploy";
  if (path === ":memory:") return "memory";
  if (/^https?:\/\//i.test(path)) return "remote";
  return "sqlite";
}

/** Only a local KV has queues: KV Connect and Deno Deploy have none. */
export function hasQueues(persistence: Persistence): boolean {
  return persistence === "sqlite" || persistence === "memory";
}

/** Every environment variable the service reads, with its default. */
const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().min(1).default("0.0.0.0"),
  LISTENER_RECYCLE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(0),
  EMAIL_READERS: z.coerce.number().int().min(0).max(64).optional(),
  KV_PATH: z.string().min(1).optional(),
  EVENTS_TRANSPORT: z.enum(["queue", "outbox"]).optional(),
  BASE_URL: z.url().optional(),
  MAIL_DOMAIN: z.string().regex(/^[a-z0-9.-]+$/i, "must be a domain name").default(
    "inbound.localhost",
  ),
  BILLING_ENABLED: bool.default(false),
  REGISTRATION: z.enum(["open", "closed", "invite"]).default("open"),
  FREE_PLAN_MONTHLY_ORDERS: z.coerce.number().int().min(0).default(100),
  INBOUND_MAIL_KEY: optionalText,
  SMTP_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  SMTP_HOST: optionalText,
  SMTP_TLS_CERT: optionalText,
  SMTP_TLS_KEY: optionalText,
  IMAP_POLL_MINUTES: z.coerce.number().int().min(1).max(59).default(5),
  SECRETS_KEY: z.string().refine((v) => decodedLength(v) === 32, "must be base64 of 32 bytes")
    .optional(),
  ALLOWED_PRIVATE_ADDRESSES: addressList,
  TRUSTED_PROXIES: addressList,
  CORS_ORIGINS: z.string().min(1).default("*"),
  TURNSTILE_SECRET_KEY: optionalText,
  TURNSTILE_VERIFY_URL: z.url().default(
    "https://challenges.cloudflare.com/turnstile/v0/siteverify",
  ),
  SMTP_URL: z.url().optional(),
  MAIL_FROM: optionalText,
  ATLAS_ISSUER: z.url().optional(),
  ATLAS_JWKS_URL: z.url().optional(),
  ATLAS_AUDIENCE: optionalText,
  DISCORD_CLIENT_ID: optionalText,
  DISCORD_API_BASE: z.url().default("https://discord.com/api/v10"),
  COMMUNITY_FEED_URL: z.url().optional(),
  COMMUNITY_FEED_NAME: z.string().trim().min(1).max(80).default("Checkout Feed"),
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_PRICE_ID: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  STRIPE_API_BASE: z.url().default("https://api.stripe.com"),
  LOG_LEVEL: z.enum(LOG_LEVELS).default("info"),
  OPERATOR_EMAILS: z.string().optional(),
  METRICS_TOKEN: z.string().trim().min(16, "must be at least 16 characters").optional(),
  // Set by Deno Deploy on every instance.
  DENO_DEPLOYMENT_ID: optionalText,
  DENO_DEPLOY: optionalText,
  UPS_CLIENT_ID: optionalText,
  UPS_CLIENT_SECRET: optionalText,
  UPS_API_BASE: z.url().default("https://onlinetools.ups.com"),
  FEDEX_API_KEY: optionalText,
  FEDEX_SECRET_KEY: optionalText,
  FEDEX_API_BASE: z.url().default("https://apis.fedex.com"),
  USPS_CLIENT_ID: optionalText,
  USPS_CLIENT_SECRET: optionalText,
  USPS_API_BASE: z.url().default("https://apis.usps.com"),
  DHL_API_KEY: optionalText,
  DHL_API_BASE: z.url().default("https://api-eu.dhl.com"),
  TRACKING_CACHE_MINUTES: z.coerce.number().int().min(0).max(1440).default(15),
  TRACKING_POLL_MINUTES: z.coerce.number().int().refine(
    (m) =>
      m === 0 || (m > 0 && m < 60 && 60 % m === 0) || (m >= 60 && 1440 % m === 0 && m % 60 === 0),
    "must be 0 (off), a divisor of 60, or whole hours dividing 24",
  ).default(30),
  TRACKING_DAILY_BUDGET: z.coerce.number().int().min(0).max(100_000_000).default(1000),
});

/** Where KV lives when `KV_PATH` is unset, off Deno Deploy. */
export const DEFAULT_KV_PATH = "./data/kv.sqlite3";

function decodedLength(b64: string): number {
  try {
    return Uint8Array.fromBase64(b64).length;
  } catch {
    return -1;
  }
}

export interface Config {
  port: number;
  host: string;
  /** Replace the listener this often, closing idle and half-sent connections; 0 never. */
  listenerRecycleSeconds: number;
  /** Reader workers for email (0: read on the serving thread). */
  emailReaders: number;
  /** Running on Deno Deploy (`DENO_DEPLOYMENT_ID` or `DENO_DEPLOY` set). */
  deploy: boolean;
  /** A file, `:memory:` or a KV Connect URL; undefined on Deploy: the app's own KV database. */
  kvPath?: string;
  /** Where KV lives, as `kvPath` says. */
  persistence: Persistence;
  /** `EVENTS_TRANSPORT` when set; unset, the store decides (`transportFor`). */
  eventsTransport?: "queue" | "outbox";
  baseUrl: string;
  mailDomain: string;
  billingEnabled: boolean;
  /** Who may create an account: anyone, nobody but the first, or whoever holds an invitation. */
  registration: "open" | "closed" | "invite";
  freePlanMonthlyOrders: number;
  inboundMailKey?: string;
  /** The built-in SMTP receiver: off without a port; STARTTLS with both PEM file paths. */
  smtpReceiver: { port?: number; host: string; tlsCertFile?: string; tlsKeyFile?: string };
  /** How often mailboxes are polled (the cron schedule of the polling job). */
  imapPollMinutes: number;
  secretsKey?: Uint8Array;
  allowedPrivateAddresses: string[];
  /** Proxies whose `X-Forwarded-For` is believed; empty: the spec's first-address rule. */
  trustedProxies: string[];
  corsOrigins: "*" | string[];
  turnstile: { secretKey?: string; verifyUrl: string };
  smtp: { url?: string; from?: string };
  /** Sign-in service: JWTs from `issuer`, keys from `jwksUrl`; off without an issuer. */
  atlas: { issuer?: string; jwksUrl?: string; audience?: string };
  /** Chat-platform sign-in: access tokens of the OAuth app `clientId`; off without it. */
  discord: { clientId?: string; apiBase: string };
  stripe: { secretKey?: string; priceId?: string; webhookSecret?: string; apiBase: string };
  /** Where chat checkouts of workspaces with public stats are mirrored; off without a URL. */
  communityFeed: { url?: string; name: string };
  logLevel: LogLevel;
  /** Accounts (lower-case emails) that see the status screen, besides the first account. */
  operatorEmails: string[];
  /** The bearer token of `GET /metrics`; unset, the endpoint is off (404) and nothing counts. */
  metricsToken?: string;
  /** Carrier tracking APIs: credentials (a carrier without them answers 503) and API bases. */
  carriers: CarrierApis;
  tracking: {
    /** Live answers younger than this are served from the cache; 0 never. */
    cacheMinutes: number;
    /** The background tracker's period; 0 turns it off. */
    pollMinutes: number;
    /** Calls per carrier API per UTC day, tracker and lookups together. */
    dailyBudget: number;
  };
}

/** An OAuth client-credentials API (UPS, FedEx, USPS). */
export interface OAuthApiConfig {
  clientId?: string;
  clientSecret?: string;
  apiBase: string;
}

export interface CarrierApis {
  ups: OAuthApiConfig;
  fedex: OAuthApiConfig;
  usps: OAuthApiConfig;
  /** DHL's one tracking API (both `dhl` and `dhl-express`), with a static key. */
  dhl: { apiKey?: string; apiBase: string };
}

export class ConfigError extends Error {}

function list(value: string | undefined): string[] {
  return (value ?? "").split(",").map((s) => s.trim()).filter(Boolean);
}

/** Parses the environment; throws ConfigError naming the first bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`Invalid ${String(issue.path[0])}: ${issue.message}`);
  }
  const e = parsed.data;
  if (e.SMTP_URL && !e.MAIL_FROM) {
    throw new ConfigError("Invalid MAIL_FROM: required when SMTP_URL is set");
  }
  // Without an audience, a token the issuer minted for another application would sign in here.
  if (e.ATLAS_ISSUER && !e.ATLAS_AUDIENCE) {
    throw new ConfigError("Invalid ATLAS_AUDIENCE: required when ATLAS_ISSUER is set");
  }
  const deploy = Boolean(e.DENO_DEPLOYMENT_ID || e.DENO_DEPLOY);
  const kvPath = e.KV_PATH ?? (deploy ? undefined : DEFAULT_KV_PATH);
  const persistence = persistenceOf(kvPath);
  // An instance's files and memory do not outlive it, and other instances never see them.
  if (deploy && persistence !== "deploy" && persistence !== "remote") {
    throw new ConfigError(
      "Invalid KV_PATH: on Deno Deploy leave it unset (the app's KV database) or give a KV Connect URL",
    );
  }
  if (deploy && !e.SECRETS_KEY) {
    throw new ConfigError(
      "Invalid SECRETS_KEY: required on Deno Deploy, where no key file survives an instance",
    );
  }
  if (e.EVENTS_TRANSPORT === "queue" && !hasQueues(persistence)) {
    throw new ConfigError(
      "Invalid EVENTS_TRANSPORT: queue needs a local KV (KV Connect and Deno Deploy have no queues)",
    );
  }
  for (const [id, secret] of CREDENTIAL_PAIRS) {
    if (Boolean(e[id]) !== Boolean(e[secret])) {
      const missing = e[id] ? secret : id;
      throw new ConfigError(`Invalid ${missing}: required when ${e[id] ? id : secret} is set`);
    }
  }
  if (!e.SMTP_TLS_CERT !== !e.SMTP_TLS_KEY) {
    throw new ConfigError(
      `Invalid ${
        e.SMTP_TLS_CERT ? "SMTP_TLS_KEY" : "SMTP_TLS_CERT"
      }: SMTP_TLS_CERT and SMTP_TLS_KEY go together`,
    );
  }
  const origins = list(e.CORS_ORIGINS);
  return {
    port: e.PORT,
    host: e.HOST,
    listenerRecycleSeconds: e.LISTENER_RECYCLE_SECONDS,
    // One worker beside the serving thread; none on Deploy, where Web Workers are not relied on.
    emailReaders: e.EMAIL_READERS ?? (deploy ? 0 : 1),
    deploy,
    kvPath,
    persistence,
    eventsTransport: e.EVENTS_TRANSPORT,
    baseUrl: (e.BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ""),
    mailDomain: e.MAIL_DOMAIN.toLowerCase(),
    billingEnabled: e.BILLING_ENABLED,
    registration: e.REGISTRATION,
    freePlanMonthlyOrders: e.FREE_PLAN_MONTHLY_ORDERS,
    inboundMailKey: e.INBOUND_MAIL_KEY,
    smtpReceiver: {
      port: e.SMTP_PORT,
      host: e.SMTP_HOST ?? e.HOST,
      tlsCertFile: e.SMTP_TLS_CERT,
      tlsKeyFile: e.SMTP_TLS_KEY,
    },
    imapPollMinutes: e.IMAP_POLL_MINUTES,
    secretsKey: e.SECRETS_KEY ? Uint8Array.fromBase64(e.SECRETS_KEY) : undefined,
    allowedPrivateAddresses: list(e.ALLOWED_PRIVATE_ADDRESSES),
    trustedProxies: list(e.TRUSTED_PROXIES),
    corsOrigins: origins.includes("*") ? "*" : origins,
    turnstile: { secretKey: e.TURNSTILE_SECRET_KEY, verifyUrl: e.TURNSTILE_VERIFY_URL },
    smtp: { url: e.SMTP_URL, from: e.MAIL_FROM },
    atlas: {
      issuer: e.ATLAS_ISSUER,
      jwksUrl: e.ATLAS_JWKS_URL ??
        (e.ATLAS_ISSUER && `${e.ATLAS_ISSUER.replace(/\/+$/, "")}/.well-known/jwks.json`),
      audience: e.ATLAS_AUDIENCE,
    },
    discord: { clientId: e.DISCORD_CLIENT_ID, apiBase: e.DISCORD_API_BASE.replace(/\/+$/, "") },
    stripe: {
      secretKey: e.STRIPE_SECRET_KEY,
      priceId: e.STRIPE_PRICE_ID,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET,
      apiBase: e.STRIPE_API_BASE,
    },
    communityFeed: { url: e.COMMUNITY_FEED_URL, name: e.COMMUNITY_FEED_NAME },
    logLevel: e.LOG_LEVEL,
    metricsToken: e.METRICS_TOKEN,
    operatorEmails: list(e.OPERATOR_EMAILS).map((email) => email.toLowerCase()),
    carriers: {
      ups: oauthApi(e.UPS_CLIENT_ID, e.UPS_CLIENT_SECRET, e.UPS_API_BASE),
      fedex: oauthApi(e.FEDEX_API_KEY, e.FEDEX_SECRET_KEY, e.FEDEX_API_BASE),
      usps: oauthApi(e.USPS_CLIENT_ID, e.USPS_CLIENT_SECRET, e.USPS_API_BASE),
      dhl: { apiKey: e.DHL_API_KEY, apiBase: trimSlash(e.DHL_API_BASE) },
    },
    tracking: {
      cacheMinutes: e.TRACKING_CACHE_MINUTES,
      pollMinutes: e.TRACKING_POLL_MINUTES,
      dailyBudget: e.TRACKING_DAILY_BUDGET,
    },
  };
}

/** Carrier credentials come in pairs: one without the other is a mistake, not "off". */
const CREDENTIAL_PAIRS = [
  ["UPS_CLIENT_ID", "UPS_CLIENT_SECRET"],
  ["FEDEX_API_KEY", "FEDEX_SECRET_KEY"],
  ["USPS_CLIENT_ID", "USPS_CLIENT_SECRET"],
] as const;

const trimSlash = (url: string) => url.replace(/\/+$/, "");

function oauthApi(clientId: string | undefined, clientSecret: string | undefined, base: string) {
  return { clientId, clientSecret, apiBase: trimSlash(base) };
}

/** A configuration for tests: in-memory KV and defaults, with overrides. */
export function testConfig(overrides: Record<string, string> = {}): Config {
  // Tests read email on their own thread unless they ask for workers.
  return loadConfig({ KV_PATH: ":memory:", LOG_LEVEL: "error", EMAIL_READERS: "0", ...overrides });
}
