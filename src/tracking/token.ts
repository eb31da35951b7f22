import type { IssuedToken } from "./protocol.ts";

/** A token is given up this long before the carrier says it expires (at most half its life). */
export const TOKEN_MARGIN_MS = 60_000;

/**
 * One carrier API's OAuth access token, kept until shortly before it expires. However many
 * lookups need a token at once, one request fetches it and they all wait for that one.
 */
export class TokenCache {
  #token: { value: string; usableUntil: number } | null = null;
  #pending: Promise<string> | null = null;

  constructor(private readonly now: () => number) {}

  /** The cached token, or a new one from `issue` (shared with every caller waiting for it). */
  get(issue: () => Promise<IssuedToken>): Promise<string> {
    const token = this.#token;
    if (token && this.now() < token.usableUntil) return Promise.resolve(token.value);
    this.#pending ??= this.#refresh(issue);
    return this.#pending;
  }

  async #refresh(issue: () => Promise<IssuedToken>): Promise<string> {
    try {
      const issued = await issue();
      const margin = Math.min(TOKEN_MARGIN_MS, issued.expiresInMs / 2);
      this.#token = {
        value: issued.accessToken,
        usableUntil: this.now() + issued.expiresInMs - margin,
      };
      return issued.accessToken;
    } finally {
      this.#pending = null;
    }
  }

  /** Forgets a token the carrier refused (a newer one fetched meanwhile stays). */
  invalidate(value: string): void {
    if (this.#token?.value === value) this.#token = null;
  }
}
