/**
 * What a carrier adapter describes: how to get an OAuth token (when the API uses one), the
 * tracking request for a number, and how to read the answer. `client.ts` runs every adapter
 * through the same flow (budget, pacing, deadline, token cache, 401/429/5xx handling), so each
 * adapter is only its carrier's protocol.
 */
import type { CarrierKey } from "../domain/tracking/carriers.ts";
import type { TrackingResult } from "../domain/tracking/answer.ts";
import type { TrackingForm } from "../domain/tracking/number.ts";

/** A request, its URL already absolute (the operator's API base plus the path). */
export interface HttpRequest {
  method: "GET" | "POST";
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  /** The parsed JSON body; undefined when there was none or it was not JSON. */
  body: unknown;
}

/** An access token and how long the carrier says it lasts. */
export interface IssuedToken {
  accessToken: string;
  expiresInMs: number;
}

/** One number to look up, as the tracking request needs it. */
export interface TrackQuery {
  carrier: CarrierKey;
  trackingNumber: string;
  /** The detected format, when detection knew it (DHL picks its `service` by it). */
  form?: TrackingForm;
}

export interface CarrierApi {
  /** The API's name in messages and logs (`UPS`, `DHL`). */
  name: string;
  /** The token request (OAuth client credentials); absent for an API with a static key. */
  tokenRequest?(): HttpRequest;
  trackRequest(query: TrackQuery, token: string | undefined): HttpRequest;
  /**
   * The answer to a tracking request with a status other than 401, 403, 429 and 5xx (which the
   * client handles alike for every carrier): a result (found or not), or null when it is not
   * what the protocol documents.
   */
  readTrack(answer: HttpAnswer, query: TrackQuery): TrackingResult | null;
}

// Reading JSON of unknown shape without trusting it.

export type Json = Record<string, unknown>;

export function obj(value: unknown): Json | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Json
    : undefined;
}

export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A string field, or undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** An OAuth token answer (`access_token`, `expires_in` as a number or a string), or null. */
export function readToken(body: unknown): IssuedToken | null {
  const token = str(obj(body)?.access_token);
  const seconds = Number(obj(body)?.expires_in);
  if (!token || !Number.isFinite(seconds) || seconds <= 0) return null;
  return { accessToken: token, expiresInMs: seconds * 1000 };
}

/** A form-encoded POST. */
export function formPost(url: string, fields: Record<string, string>, headers = {}): HttpRequest {
  return {
    method: "POST",
    url,
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  };
}

/** A JSON POST. */
export function jsonPost(url: string, body: unknown, headers = {}): HttpRequest {
  return {
    method: "POST",
    url,
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  };
}
