/**
 * What a section of the workspace snapshot or the account export is read from, and how the
 * sections are read. Capabilities import these types; `snapshot.ts` and `export.ts` list the
 * loaders, so no capability module depends on them.
 */
import type { UserRecord } from "../domain/account/user.ts";
import type { ApiKeyUseRecorder } from "./account/api_key_use.ts";

export interface WorkspaceContext {
  kv: Deno.Kv;
  user: UserRecord;
  now: number;
  apiKeyUse: ApiKeyUseRecorder;
  /** Deployment facts some sections show: the forwarding addresses' domain. */
  mailDomain: string;
  /** The built-in email templates (`{id, name, stores}`), listed with the custom ones. */
  builtInTemplates: Item[];
  /** `BASE_URL`: what chat intake URLs start with. */
  baseUrl: string;
}

export type Loader<T> = (ctx: WorkspaceContext) => Promise<T>;

/** A record of a collection, as its own endpoints return it. */
export type Item = Record<string, unknown>;

/** Reads every section at once (they are independent). */
export async function loadSections<S extends Record<string, Loader<unknown>>>(
  sections: S,
  ctx: WorkspaceContext,
): Promise<{ [K in keyof S]: Awaited<ReturnType<S[K]>> }> {
  const names = Object.keys(sections);
  const values = await Promise.all(names.map((name) => sections[name](ctx)));
  return Object.fromEntries(names.map((name, i) => [name, values[i]])) as {
    [K in keyof S]: Awaited<ReturnType<S[K]>>;
  };
}
