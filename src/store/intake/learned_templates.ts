/**
 * Learned templates (CONTRACT "Learning from corrections"): custom templates the service wrote
 * from a user's corrections, stored with the hand-written ones (and tried like them), one per
 * sender, at most `MAX_LEARNED_TEMPLATES` per workspace (a new one drops the oldest learned one).
 */
import { MAX_LEARNED_TEMPLATES } from "../../domain/intake/learning.ts";
import type { CustomField, LearnedFrom } from "../../domain/intake/template.ts";
import { keys } from "../keys.ts";
import { commit, withRetry } from "../kv.ts";
import type { StoredTemplate } from "./templates.ts";

export interface LearnedChange {
  /** The real sender's address, lower case: the template's `match.from`. */
  sender: string;
  fields: Partial<Record<CustomField, string>>;
  learned: LearnedFrom;
  /** The id a new template gets. */
  newId: string;
}

const MAX_DROPS = 5;

async function learnedOf(kv: Deno.Kv, userId: string) {
  const out: Deno.KvEntry<StoredTemplate>[] = [];
  for await (const e of kv.list<StoredTemplate>({ prefix: keys.customTemplates(userId) })) {
    if (e.value.learned) out.push(e);
  }
  return out;
}

function learnedAt(t: StoredTemplate): string {
  return t.learned?.at ?? t.createdAt;
}

/**
 * Adds the fields to the sender's learned template, or writes a new one (dropping the oldest
 * learned ones past the limit), in one commit checked against what was read; null when the
 * account is gone.
 */
export function saveLearned(
  kv: Deno.Kv,
  userId: string,
  change: LearnedChange,
): Promise<StoredTemplate | null> {
  return withRetry(async () => {
    const user = await kv.get(keys.user(userId));
    if (!user.value) return { commit: null, value: null };
    const learned = await learnedOf(kv, userId);
    const own = learned.find((e) => e.value.match.from === change.sender && !e.value.match.subject);
    const op = kv.atomic().check(user);
    let template: StoredTemplate;
    if (own) {
      template = {
        ...own.value,
        fields: { ...own.value.fields, ...change.fields },
        learned: change.learned,
        updatedAt: change.learned.at,
      };
      op.check(own).set(own.key, template);
    } else {
      template = {
        id: change.newId,
        name: `Learned: ${change.sender}`,
        match: { from: change.sender },
        fields: change.fields,
        learned: change.learned,
        createdAt: change.learned.at,
      };
      const key = keys.customTemplate(userId, template.id);
      op.check({ key, versionstamp: null }).set(key, template);
      const oldest = learned.sort((a, b) => learnedAt(a.value).localeCompare(learnedAt(b.value)));
      // A few per commit (KV's check limit); each new one drops at least the one it replaces.
      const over = Math.min(MAX_DROPS, learned.length + 1 - MAX_LEARNED_TEMPLATES);
      for (const e of oldest.slice(0, Math.max(0, over))) {
        op.check(e).delete(e.key);
      }
    }
    return { commit: await commit(op), value: template };
  });
}
