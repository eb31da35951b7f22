/**
 * Local fake carrier APIs on loopback, speaking each carrier's documented protocol
 * (research/carriers.md section 2): the OAuth token endpoint with its client-credentials checks,
 * bearer checks on tracking calls, the documented JSON answers and error shapes, 429 with
 * `Retry-After`. Tests and the benchmark point `*_API_BASE` at them. Answers come from
 * `parcels` (number -> the carrier's JSON body) or `answer(number)`.
 */
import type { ApiKey } from "../../src/tracking/client.ts";

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: string;
}

/** A forced answer for the next request (any endpoint). */
export interface Forced {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Wait this long before answering (deadline tests). */
  delayMs?: number;
}

export interface FakeCarrier extends AsyncDisposable {
  api: ApiKey;
  url: string;
  /** The credentials it accepts. */
  id: string;
  secret: string;
  requests: FakeRequest[];
  tokenRequests: () => number;
  trackRequests: () => number;
  /** number (normalised) -> the carrier's JSON answer. */
  parcels: Map<string, unknown>;
  /** USPS: numbers answered 404 `150006` (a label not scanned yet). */
  pending: Set<string>;
  /** Answers numbers `parcels` lacks; undefined means unknown to the carrier. */
  answer?: (trackingNumber: string) => unknown;
  /** Seconds each issued token lasts (as the carrier states it in `expires_in`). */
  tokenLifetimeS: number;
  /** Answers in turn before normal handling. */
  forced: Forced[];
  /** Makes every token issued so far invalid (the carrier revoked them). */
  revokeTokens(): void;
  close(): Promise<void>;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });

type Handler = (req: FakeRequest, fake: FakeCarrier, tokens: Set<string>) => Response;

function startFake(api: ApiKey, handler: Handler): FakeCarrier {
  const tokens = new Set<string>();
  let tokenCount = 0;
  let trackCount = 0;
  const fake: FakeCarrier = {
    api,
    url: "",
    id: `${api}-client-id`,
    secret: `${api}-client-secret-${crypto.randomUUID()}`,
    requests: [],
    tokenRequests: () => tokenCount,
    trackRequests: () => trackCount,
    parcels: new Map(),
    pending: new Set(),
    tokenLifetimeS: 3600,
    forced: [],
    revokeTokens: () => tokens.clear(),
    close: async () => {},
    [Symbol.asyncDispose]: () => fake.close(),
  };
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const url = new URL(request.url);
      const req: FakeRequest = {
        method: request.method,
        path: url.pathname,
        query: url.searchParams,
        headers: request.headers,
        body: await request.text(),
      };
      fake.requests.push(req);
      if (/token/.test(req.path)) tokenCount++;
      else trackCount++;
      const forced = fake.forced.shift();
      if (forced) {
        if (forced.delayMs) await new Promise((r) => setTimeout(r, forced.delayMs));
        return json(forced.status, forced.body ?? {}, forced.headers);
      }
      return handler(req, fake, tokens);
    },
  );
  fake.url = `http://127.0.0.1:${server.addr.port}`;
  fake.close = () => server.shutdown();
  return fake;
}

function newToken(tokens: Set<string>): string {
  const token = crypto.randomUUID().replaceAll("-", "");
  tokens.add(token);
  return token;
}

function bearerOk(req: FakeRequest, tokens: Set<string>): boolean {
  const match = /^Bearer (\S+)$/.exec(req.headers.get("authorization") ?? "");
  return match !== null && tokens.has(match[1]);
}

function lookupParcel(fake: FakeCarrier, n: string): unknown {
  return fake.parcels.get(n) ?? fake.answer?.(n);
}

// ---------------------------------------------------------------------------------------------
// UPS: Basic-auth token endpoint; GET details with transId and transactionSrc.

const upsError = (status: number, code: string, message: string) =>
  json(status, { response: { errors: [{ code, message }] } });

export function fakeUps(): FakeCarrier {
  return startFake("ups", (req, fake, tokens) => {
    if (req.method === "POST" && req.path === "/security/v1/oauth/token") {
      const basic = "Basic " + btoa(`${fake.id}:${fake.secret}`);
      const form = new URLSearchParams(req.body);
      if (req.headers.get("authorization") !== basic) {
        return upsError(401, "250003", "Invalid Access License number");
      }
      if (
        !req.headers.get("content-type")?.startsWith("application/x-www-form-urlencoded") ||
        form.get("grant_type") !== "client_credentials"
      ) {
        return upsError(400, "10400", "Invalid/Missing Authorization Header");
      }
      return json(200, {
        token_type: "Bearer",
        issued_at: String(Date.now()),
        client_id: fake.id,
        access_token: newToken(tokens),
        scope: "",
        expires_in: String(fake.tokenLifetimeS),
        refresh_count: "0",
        status: "approved",
      });
    }
    const match = /^\/api\/track\/v1\/details\/([^/]+)$/.exec(req.path);
    if (req.method !== "GET" || !match) return upsError(404, "404", "Resource not found");
    if (!bearerOk(req, tokens)) {
      return upsError(401, "250002", "Invalid Authentication Information.");
    }
    if (!req.headers.get("transId") || !req.headers.get("transactionSrc")) {
      return upsError(400, "TV1001", "Missing transId or transactionSrc");
    }
    const n = decodeURIComponent(match[1]);
    if (n.length < 7 || n.length > 34) return upsError(400, "TV1002", "Invalid inquiry number");
    const parcel = lookupParcel(fake, n);
    if (parcel !== undefined) return json(200, parcel);
    return json(200, {
      trackResponse: {
        shipment: [{
          inquiryNumber: n,
          warnings: [{ code: "TW0001", message: "Tracking Information Not Found" }],
        }],
      },
    });
  });
}

// ---------------------------------------------------------------------------------------------
// FedEx: form token endpoint with client_id/client_secret; POST trackingnumbers.

const fedexError = (status: number, code: string, message: string) =>
  json(status, { transactionId: crypto.randomUUID(), errors: [{ code, message }] });

export function fakeFedex(): FakeCarrier {
  return startFake("fedex", (req, fake, tokens) => {
    if (req.method === "POST" && req.path === "/oauth/token") {
      const form = new URLSearchParams(req.body);
      if (form.get("grant_type") !== "client_credentials") {
        return fedexError(400, "BAD.REQUEST.ERROR", "grant_type is invalid");
      }
      if (form.get("client_id") !== fake.id || form.get("client_secret") !== fake.secret) {
        return fedexError(
          401,
          "NOT.AUTHORIZED.ERROR",
          "The given client credentials were not valid",
        );
      }
      return json(200, {
        access_token: newToken(tokens),
        token_type: "bearer",
        expires_in: fake.tokenLifetimeS,
        scope: "CXS",
      });
    }
    if (req.method !== "POST" || req.path !== "/track/v1/trackingnumbers") {
      return fedexError(
        404,
        "NOT.FOUND.ERROR",
        "The resource you requested is no longer available",
      );
    }
    if (!bearerOk(req, tokens)) {
      return fedexError(
        401,
        "NOT.AUTHORIZED.ERROR",
        "Access token expired. Please modify your request and try again.",
      );
    }
    let body: { trackingInfo?: { trackingNumberInfo?: { trackingNumber?: string } }[] } = {};
    try {
      body = JSON.parse(req.body);
    } catch { /* an empty body below */ }
    const n = body.trackingInfo?.[0]?.trackingNumberInfo?.trackingNumber;
    if (!n) {
      return fedexError(400, "TRACKING.TRACKINGNUMBER.EMPTY", "Please provide tracking number.");
    }
    const parcel = lookupParcel(fake, n);
    if (parcel !== undefined) return json(200, parcel);
    return json(200, {
      transactionId: crypto.randomUUID(),
      output: {
        completeTrackResults: [{
          trackingNumber: n,
          trackResults: [{
            trackingNumberInfo: { trackingNumber: n, carrierCode: "" },
            error: {
              code: "TRACKING.TRACKINGNUMBER.NOTFOUND",
              message:
                "Tracking number cannot be found. Please correct the tracking number and try again.",
            },
          }],
        }],
      },
    });
  });
}

// ---------------------------------------------------------------------------------------------
// USPS: JSON token endpoint; GET tracking with expand=DETAIL.

const uspsError = (status: number, code: string, detail: string) =>
  json(status, {
    apiVersion: "3.0.0",
    error: {
      code: String(status),
      message: detail,
      errors: [{ status: String(status), code, title: "", detail }],
    },
  });

export function fakeUsps(): FakeCarrier {
  return startFake("usps", (req, fake, tokens) => {
    if (req.method === "POST" && req.path === "/oauth2/v3/token") {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(req.body);
      } catch { /* refused below */ }
      if (
        body.grant_type !== "client_credentials" || body.client_id !== fake.id ||
        body.client_secret !== fake.secret
      ) {
        return json(401, {
          error: "invalid_client",
          error_description: "Client authentication failed.",
        });
      }
      return json(200, {
        access_token: newToken(tokens),
        token_type: "Bearer",
        issued_at: String(Date.now()),
        expires_in: String(fake.tokenLifetimeS),
        status: "approved",
        scope: "addresses tracking labels",
        issuer: "https://keyc.usps.com/realms/USPS",
        client_id: fake.id,
      });
    }
    const match = /^\/tracking\/v3\/tracking\/([^/]+)$/.exec(req.path);
    if (req.method !== "GET" || !match) return uspsError(404, "404", "Not found");
    if (!bearerOk(req, tokens)) return uspsError(401, "401", "Unauthorized");
    const n = decodeURIComponent(match[1]);
    if (fake.pending.has(n)) {
      return uspsError(
        404,
        "150006",
        "A status update is not yet available for your package. It will be available when the shipper provides an update or the package is delivered to USPS.",
      );
    }
    const parcel = req.query.get("expand") === "DETAIL" ? lookupParcel(fake, n) : undefined;
    if (parcel !== undefined) return json(200, parcel);
    return uspsError(
      404,
      "150001",
      "The tracking number may be incorrect or the status update is not yet available.",
    );
  });
}

// ---------------------------------------------------------------------------------------------
// DHL Unified: static key header; GET /track/shipments; RFC 7807 problem details.

const problem = (status: number, title: string, detail: string, instance = "") =>
  json(status, { title, detail, status, instance }, { "content-type": "application/problem+json" });

export function fakeDhl(): FakeCarrier {
  return startFake("dhl", (req, fake) => {
    if (req.method !== "GET" || req.path !== "/track/shipments") {
      return problem(404, "Not Found", "No such resource");
    }
    if (req.headers.get("DHL-API-Key") !== fake.id) {
      return problem(401, "Unauthorized", "Invalid API key");
    }
    const n = req.query.get("trackingNumber");
    if (!n) return problem(400, "Bad Request", "trackingNumber is required");
    const parcel = lookupParcel(fake, n);
    if (parcel !== undefined) return json(200, parcel);
    return problem(
      404,
      "No result found",
      "No shipment with given tracking number found.",
      `/shipment/${n}`,
    );
  });
}

/** All four fakes, and the environment that points the service at them with credentials. */
export interface Fakes extends AsyncDisposable {
  ups: FakeCarrier;
  fedex: FakeCarrier;
  usps: FakeCarrier;
  dhl: FakeCarrier;
  env: Record<string, string>;
  close(): Promise<void>;
}

export function startFakes(): Fakes {
  const ups = fakeUps();
  const fedex = fakeFedex();
  const usps = fakeUsps();
  const dhl = fakeDhl();
  const close = async () => {
    await Promise.all([ups.close(), fedex.close(), usps.close(), dhl.close()]);
  };
  return {
    ups,
    fedex,
    usps,
    dhl,
    env: {
      UPS_CLIENT_ID: ups.id,
      UPS_CLIENT_SECRET: ups.secret,
      UPS_API_BASE: ups.url,
      FEDEX_API_KEY: fedex.id,
      FEDEX_SECRET_KEY: fedex.secret,
      FEDEX_API_BASE: fedex.url,
      USPS_CLIENT_ID: usps.id,
      USPS_CLIENT_SECRET: usps.secret,
      USPS_API_BASE: usps.url,
      DHL_API_KEY: dhl.id,
      DHL_API_BASE: dhl.url,
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** No pacing: tests that are not about pacing should not wait. */
export const NO_PACING = { gapsMs: { ups: 0, fedex: 0, usps: 0, dhl: 0 } };
