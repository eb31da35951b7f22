/**
 * The carrier APIs of the deployment (`deps.carriers`): one flow for every adapter. A lookup
 * takes one call from the day's budget for each request it makes (token requests included),
 * waits its turn (pacing), sends with a deadline to the operator's API base (never a user's
 * URL), and reads the answer: a 401 with a cached token fetches a new one once; 429 pauses the
 * API for the `Retry-After`; 5xx, timeouts and unreadable answers count towards a pause after
 * repeated failures. Failures are `UpstreamError`s (502); messages never carry credentials.
 */
import type { CarrierApis } from "../config.ts";
import { type CarrierKey, CARRIERS } from "../domain/tracking/carriers.ts";
import { budgetDay, budgetShares, untilBudgetReset } from "../domain/tracking/tracker.ts";
import type { TrackingResult } from "../domain/tracking/answer.ts";
import { UpstreamError } from "../errors.ts";
import type { Logger } from "../lib/log.ts";
import { type BudgetPurpose, callsSpent, takeCall } from "../store/tracking/carrier_budget.ts";
import { dhlApi } from "./dhl.ts";
import { fedexApi } from "./fedex.ts";
import { Breaker, Pacer, retryAfterMs } from "./limits.ts";
import {
  type CarrierApi,
  type HttpAnswer,
  type HttpRequest,
  readToken,
  type TrackQuery,
} from "./protocol.ts";
import { TokenCache } from "./token.ts";
import { upsApi } from "./ups.ts";
import { uspsApi } from "./usps.ts";
import { metrics } from "../lib/metrics.ts";
import { withSpan } from "../lib/tracing.ts";

/** The carrier APIs; DHL's one API serves both `dhl` and `dhl-express` (one key, one quota). */
export type ApiKey = keyof CarrierApis;
export const API_OF: Readonly<Record<CarrierKey, ApiKey>> = {
  ups: "ups",
  fedex: "fedex",
  usps: "usps",
  dhl: "dhl",
  "dhl-express": "dhl",
};

/**
 * Least time between two calls to an API (research/carriers.md section 3): DHL allows 1 call a
 * second on its starter level; USPS's quota is reported near 60 an hour, so its calls are kept a
 * second apart too (the daily budget keeps the hourly count down); FedEx allows 1,400 per 10 s;
 * UPS publishes nothing, so 10 a second.
 */
export const DEFAULT_GAPS_MS: Readonly<Record<ApiKey, number>> = {
  ups: 100,
  fedex: 10,
  usps: 1000,
  dhl: 1000,
};
/** Deadline of one request, answer included. */
export const CALL_TIMEOUT_MS = 10_000;
/** Longest answer read (a parcel's answer is a few KiB). */
const MAX_ANSWER_BYTES = 1 << 20;

export interface CarrierOptions {
  /** Pacing per API (tests and the benchmark shorten it). */
  gapsMs?: Partial<Record<ApiKey, number>>;
  timeoutMs?: number;
}

export type TrackOutcome =
  | { ok: true; result: TrackingResult }
  | { ok: false; reason: "not_configured" }
  | { ok: false; reason: "budget_spent"; retryAfterMs: number };

interface ApiState {
  key: ApiKey;
  api: CarrierApi | null;
  tokens: TokenCache;
  pacer: Pacer;
  breaker: Breaker;
}

/** Thrown inside a lookup when the day's share is used up; `track` returns it as an outcome. */
class BudgetSpent extends Error {}

export class Carriers {
  readonly #apis: Record<ApiKey, ApiState>;
  readonly #shares: { tracker: number; lookup: number };
  readonly #calls = new Map<string, number>();

  constructor(
    private readonly kv: Deno.Kv,
    config: CarrierApis,
    dailyBudget: number,
    private readonly log: Logger,
    private readonly now: () => number,
    private readonly options: CarrierOptions = {},
  ) {
    const { ups, fedex, usps, dhl } = config;
    const oauth = (c: typeof ups) => Boolean(c.clientId && c.clientSecret);
    this.#apis = {
      ups: this.#state("ups", oauth(ups) ? upsApi(ups) : null),
      fedex: this.#state("fedex", oauth(fedex) ? fedexApi(fedex) : null),
      usps: this.#state("usps", oauth(usps) ? uspsApi(usps) : null),
      dhl: this.#state("dhl", dhl.apiKey ? dhlApi(dhl) : null),
    };
    this.#shares = budgetShares(dailyBudget);
  }

  #state(key: ApiKey, api: CarrierApi | null): ApiState {
    const gap = this.options.gapsMs?.[key] ?? DEFAULT_GAPS_MS[key];
    return {
      key,
      api,
      tokens: new TokenCache(this.now),
      pacer: new Pacer(gap),
      breaker: new Breaker(),
    };
  }

  /** Every carrier key with its name and whether this deployment has its credentials. */
  list(): { key: CarrierKey; name: string; configured: boolean }[] {
    return CARRIERS.map(({ key, name }) => ({ key, name, configured: this.configured(key) }));
  }

  configured(carrier: CarrierKey): boolean {
    return this.#apis[API_OF[carrier]].api !== null;
  }

  /** The day's share of `purpose` for each API. */
  share(purpose: BudgetPurpose): number {
    return this.#shares[purpose];
  }

  /** Calls left today for each configured API and purpose. */
  async budgetsLeft(): Promise<{ api: ApiKey; purpose: BudgetPurpose; left: number }[]> {
    const day = budgetDay(this.now());
    const out = [];
    for (const state of Object.values(this.#apis)) {
      if (!state.api) continue;
      for (const purpose of ["tracker", "lookup"] as const) {
        const spent = await callsSpent(this.kv, state.key, day, purpose);
        out.push({ api: state.key, purpose, left: Math.max(0, this.#shares[purpose] - spent) });
      }
    }
    return out;
  }

  /** Requests sent to an API for a purpose since this process started. */
  callsMade(api: ApiKey, purpose: BudgetPurpose): number {
    return this.#calls.get(`${api} ${purpose}`) ?? 0;
  }

  /**
   * One live lookup. Outcomes that are the deployment's (no credentials, budget spent) are
   * returned; the carrier's failures throw `UpstreamError`, with `retryAfterSeconds` while the
   * API is paused.
   */
  async track(query: TrackQuery, purpose: BudgetPurpose): Promise<TrackOutcome> {
    const state = this.#apis[API_OF[query.carrier]];
    const outcome = await withSpan(
      "carrier.lookup",
      { "carrier.name": query.carrier, "carrier.purpose": purpose },
      () => this.#track(state, query, purpose),
    ).catch((err) => {
      metrics.carrierLookup(query.carrier, err instanceof UpstreamError ? "failed" : "error");
      throw err;
    });
    metrics.carrierLookup(query.carrier, outcome.ok ? "ok" : outcome.reason);
    return outcome;
  }

  async #track(state: ApiState, query: TrackQuery, purpose: BudgetPurpose): Promise<TrackOutcome> {
    if (!state.api) return { ok: false, reason: "not_configured" };
    const paused = state.breaker.paused(this.now());
    if (paused) {
      const seconds = Math.ceil(paused.ms / 1000);
      throw new UpstreamError(
        state.api.name,
        `${state.api.name} ${paused.why}; retry in ${seconds} s`,
        { carrier: query.carrier, retryAfterSeconds: seconds },
      );
    }
    try {
      const result = await this.#lookup(state, state.api, query, purpose);
      state.breaker.succeeded();
      return { ok: true, result };
    } catch (err) {
      if (!(err instanceof BudgetSpent)) throw err;
      return { ok: false, reason: "budget_spent", retryAfterMs: untilBudgetReset(this.now()) };
    }
  }

  async #lookup(
    state: ApiState,
    api: CarrierApi,
    query: TrackQuery,
    purpose: BudgetPurpose,
  ): Promise<TrackingResult> {
    for (let attempt = 0;; attempt++) {
      const token = api.tokenRequest
        ? await state.tokens.get(() => this.#issueToken(state, api, query, purpose))
        : undefined;
      const answer = await this.#send(state, api, query, api.trackRequest(query, token), purpose);
      // A token the carrier no longer takes (revoked, or a newer one replaced it): once more.
      if (answer.status === 401 && token && attempt === 0) {
        state.tokens.invalidate(token);
        continue;
      }
      this.#checkStatus(state, api, query, answer);
      const result = api.readTrack(answer, query);
      if (!result) {
        throw this.#failure(
          state,
          api,
          query,
          `${api.name} gave an answer that could not be read`,
          {
            status: answer.status,
          },
        );
      }
      return result;
    }
  }

  async #issueToken(state: ApiState, api: CarrierApi, query: TrackQuery, purpose: BudgetPurpose) {
    const answer = await this.#send(state, api, query, api.tokenRequest!(), purpose);
    if (answer.status !== 200) this.#checkStatus(state, api, query, answer, true);
    const token = readToken(answer.body);
    if (!token) {
      throw this.#failure(
        state,
        api,
        query,
        `${api.name} gave a token answer that could not be read`,
        {
          status: answer.status,
        },
      );
    }
    return token;
  }

  /** Throws for what every carrier answers alike: 429, 5xx, refused credentials. */
  #checkStatus(
    state: ApiState,
    api: CarrierApi,
    query: TrackQuery,
    answer: HttpAnswer,
    tokenRequest = false,
  ): void {
    const { status } = answer;
    if (status === 429) {
      const ms = retryAfterMs(answer.headers.get("retry-after"), this.now());
      state.breaker.rateLimited(this.now(), ms);
      this.log.warn("carrier rate limit", { api: state.key, retryAfterMs: ms });
      const seconds = Math.ceil(ms / 1000);
      throw new UpstreamError(
        api.name,
        `${api.name} asked for fewer requests; retry in ${seconds} s`,
        { carrier: query.carrier, retryAfterSeconds: seconds },
      );
    }
    if (status >= 500) {
      throw this.#failure(state, api, query, `${api.name} failed (HTTP ${status})`, { status });
    }
    if (status === 401 || status === 403 || (tokenRequest && status !== 200)) {
      throw this.#failure(
        state,
        api,
        query,
        `${api.name} did not accept this deployment's credentials`,
        { status },
      );
    }
  }

  #failure(
    state: ApiState,
    api: CarrierApi,
    query: TrackQuery,
    message: string,
    fields: Record<string, unknown> = {},
  ): UpstreamError {
    state.breaker.failed(this.now());
    this.log.warn("carrier call failed", { api: state.key, error: message, ...fields });
    return new UpstreamError(api.name, message, { carrier: query.carrier });
  }

  /** One request: a call from the budget, its turn, then the deadline-bound exchange. */
  async #send(
    state: ApiState,
    api: CarrierApi,
    query: TrackQuery,
    request: HttpRequest,
    purpose: BudgetPurpose,
  ): Promise<HttpAnswer> {
    const day = budgetDay(this.now());
    if (!await takeCall(this.kv, state.key, day, purpose, this.#shares[purpose])) {
      throw new BudgetSpent();
    }
    await state.pacer.wait();
    const counter = `${state.key} ${purpose}`;
    this.#calls.set(counter, (this.#calls.get(counter) ?? 0) + 1);
    const timeoutMs = this.options.timeoutMs ?? CALL_TIMEOUT_MS;
    const started = performance.now();
    try {
      const res = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        redirect: "manual",
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await readBounded(res);
      this.log.debug("carrier call", {
        api: state.key,
        status: res.status,
        ms: Math.round(performance.now() - started),
      });
      if (text === null) {
        throw this.#failure(state, api, query, `${api.name} gave an answer that was too large`);
      }
      return { status: res.status, headers: res.headers, body: parseJson(text) };
    } catch (err) {
      if (err instanceof UpstreamError) throw err;
      const timedOut = err instanceof DOMException && err.name === "TimeoutError";
      const message = timedOut
        ? `${api.name} did not answer within ${Number((timeoutMs / 1000).toFixed(1))} s`
        : `${api.name} is unreachable`;
      throw this.#failure(state, api, query, message);
    }
  }
}

/** The body as text, or null past {@link MAX_ANSWER_BYTES}. */
async function readBounded(res: Response): Promise<string | null> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return new TextDecoder().decode(bytes);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
