/** The workspace's custom email templates (CONTRACT "Templates"), newest first. */
import type { CustomTemplate } from "../../domain/intake/template.ts";
import { AccountGoneError } from "../../errors.ts";
import { keys } from "../keys.ts";
import { changeValue, commit, deleteValue, listValues, lookup } from "../kv.ts";
import type { Item, WorkspaceContext } from "../sections.ts";

/** A stored custom template: what the user sent, with its id, name and times. */
export interface StoredTemplate extends CustomTemplate {
  name: string;
  createdAt: string;
  updatedAt?: string;
}

export async function createTemplate(kv: Deno.Kv, userId: string, template: StoredTemplate) {
  const user = await kv.get(keys.user(userId));
  if (!user.value) throw new AccountGoneError();
  const key = keys.customTemplate(userId, template.id);
  const done = await commit(
    kv.atomic().check(user).check({ key, versionstamp: null }).set(key, template),
  );
  if (!done.ok) throw new AccountGoneError();
}

/** Newest first: the order they are tried in. */
export function listTemplates(kv: Deno.Kv, userId: string): Promise<StoredTemplate[]> {
  return listValues<StoredTemplate>(kv, { prefix: keys.customTemplates(userId) }, {
    reverse: true,
  });
}

export async function getTemplate(kv: Deno.Kv, userId: string, id: string) {
  return (await lookup<StoredTemplate>(kv, keys.customTemplate(userId, id))).value;
}

/** Applies `change`; null when the template does not exist. */
export function changeTemplate(
  kv: Deno.Kv,
  userId: string,
  id: string,
  change: (t: StoredTemplate) => StoredTemplate,
): Promise<StoredTemplate | null> {
  return changeValue(kv, keys.customTemplate(userId, id), change);
}

export function deleteTemplate(kv: Deno.Kv, userId: string, id: string): Promise<boolean> {
  return deleteValue(kv, keys.customTemplate(userId, id));
}

/** The export's `customTemplates`. */
export async function customTemplatesSection(ctx: WorkspaceContext): Promise<Item[]> {
  return await listTemplates(ctx.kv, ctx.user.id) as unknown as Item[];
}

/** The snapshot's `templates`: the built-in ones (`builtIn: true`), then the custom ones. */
export async function templatesSection(ctx: WorkspaceContext): Promise<Item[]> {
  const builtIn = ctx.builtInTemplates.map((t) => ({ ...t, builtIn: true }));
  return [...builtIn, ...await customTemplatesSection(ctx)];
}
