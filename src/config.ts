import { z } from "@hono/zod-openapi";
import { isAddressList } from "./net/address.ts";

const bool = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");
const optionalText = z.string().trim().min(1).optional();
const addressList = z.string().refine(
  (v) => isAddressList(list(v)),
  "must be comma-separated IP addresses or CIDR ranges",
).optional();

/** Every environment variable the service reads, with its default. */
const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().min(1).default("0.0.0.0"),
  LISTENER_RECYCLE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(0),
  KV_PATH: z.string().min(1).default("./data/kv.sqlite3"),
  BASE_URL: z.url().optional(),
  MAIL_DOMAIN: z.string().regex(/^[a-z0-9.-]+$/i, "must be a domain name").default(
    "inbound.localhost",
  ),
  BILLING_ENABLED: bool.default(false),
  FREE_PLAN_MONTHLY_ORDERS: z.coerce.number().int().min(0).default(100),
  INBOUND_MAIL_KEY: optionalText,
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
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
});

function decodedLength(b64: string): number {
  try {
    return Uint8Array.fromBase64(b64).length;
  } catch {
    return -1;
  }
}

export type LogLevel = z.infer<typeof EnvSchema>["LOG_LEVEL"];

export interface Config {
  port: number;
  host: string;
  /** Replace the listener this often, closing idle and half-sent connections; 0 never. */
  listenerRecycleSeconds: number;
  kvPath: string;
  baseUrl: string;
  mailDomain: string;
  billingEnabled: boolean;
  freePlanMonthlyOrders: number;
  inboundMailKey?: string;
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
  const origins = list(e.CORS_ORIGINS);
  return {
    port: e.PORT,
    host: e.HOST,
    listenerRecycleSeconds: e.LISTENER_RECYCLE_SECONDS,
    kvPath: e.KV_PATH,
    baseUrl: (e.BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ""),
    mailDomain: e.MAIL_DOMAIN.toLowerCase(),
    billingEnabled: e.BILLING_ENABLED,
    freePlanMonthlyOrders: e.FREE_PLAN_MONTHLY_ORDERS,
    inboundMailKey: e.INBOUND_MAIL_KEY,
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
  };
}

/** A configuration for tests: in-memory KV and defaults, with overrides. */
export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({ KV_PATH: ":memory:", LOG_LEVEL: "error", ...overrides });
}
