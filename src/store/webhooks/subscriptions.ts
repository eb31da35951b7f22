import {
  afterRotation,
  MAX_SUBSCRIPTIONS,
  newSigningSecret,
  publicSubscription,
  SECRET_PREFIX_LENGTH,
  type StoredSubscription,
  uniqueEventTypes,
} from "../../domain/webhooks/subscription.ts";
import type { EventType } from "../../domain/events/types.ts";
import { newId } from "../../lib/ids.ts";
import type { SecretBox } from "../../lib/secret_box.ts";
import { keys } from "../keys.ts";
import type { WorkspaceContext } from "../sections.ts";
import { addToCounter, commit, counterValue, listValues, lookup, withRetry } from "../kv.ts";

export interface NewSubscription {
  userId: string;
  url: string;
  eventTypes: EventType[];
  active: boolean;
}

export type CreateResult =
  | { ok: true; sub: StoredSubscription; secret: string }
  | { ok: false; reason: "limit" };

/** A fresh secret, sealed for subscription `id`, and its visible prefix. */
async function issueSecret(box: SecretBox, id: string) {
  const secret = newSigningSecret();
  return {
    secret,
    sealedSecret: await box.seal(secret, id),
    prefix: secret.slice(0, SECRET_PREFIX_LENGTH),
  };
}

/**
 * Creates a subscription unless the account has 25: the count is checked in the same commit
 * that raises it, so concurrent creates cannot pass the cap.
 */
export async function createSubscription(
  kv: Deno.Kv,
  box: SecretBox,
  input: NewSubscription,
  now: number,
): Promise<CreateResult> {
  const id = newId("whsub", now);
  const { secret, sealedSecret, prefix } = await issueSecret(box, id);
  const sub: StoredSubscription = {
    id,
    userId: input.userId,
    url: input.url,
    prefix,
    eventTypes: uniqueEventTypes(input.eventTypes),
    active: input.active,
    failureCount: 0,
    createdAt: new Date(now).toISOString(),
    needsSecretRotation: false,
    sealedSecret,
  };
  const countKey = keys.webhookSubCount(input.userId);
  const subKey = keys.webhookSub(input.userId, id);
  return await withRetry<CreateResult>(async () => {
    const count = await kv.get<Deno.KvU64>(countKey);
    if (counterValue(count.value) >= MAX_SUBSCRIPTIONS) {
      return { commit: null, value: { ok: false, reason: "limit" } };
    }
    const op = kv.atomic().check(count).check({ key: subKey, versionstamp: null }).set(subKey, sub);
    addToCounter(op, countKey, 1);
    return { commit: await commit(op), value: { ok: true, sub, secret } };
  });
}

/** The account's subscriptions, newest first (ids sort in creation order). */
export function listSubscriptions(kv: Deno.Kv, userId: string): Promise<StoredSubscription[]> {
  return listValues<StoredSubscription>(kv, { prefix: keys.webhookSubs(userId) }, {
    reverse: true,
  });
}

/** The snapshot's and export's `webhookSubscriptions`: as the list shows them, no secrets. */
export async function webhookSubscriptionsSection(ctx: WorkspaceContext) {
  return (await listSubscriptions(ctx.kv, ctx.user.id)).map(publicSubscription);
}

export async function getSubscription(
  kv: Deno.Kv,
  userId: string,
  id: string,
): Promise<StoredSubscription | null> {
  return (await lookup<StoredSubscription>(kv, keys.webhookSub(userId, id))).value;
}

/**
 * Applies `change` to the stored subscription with optimistic concurrency (concurrent delivery
 * outcomes never overwrite each other); `alsoWrite` adds writes to the same commit. Null when
 * the subscription does not exist (then nothing is written).
 */
export async function changeSubscription(
  kv: Deno.Kv,
  userId: string,
  id: string,
  change: (sub: StoredSubscription) => StoredSubscription,
  alsoWrite?: (op: Deno.AtomicOperation) => void,
): Promise<StoredSubscription | null> {
  const key = keys.webhookSub(userId, id);
  return await withRetry(async () => {
    const entry = await lookup<StoredSubscription>(kv, key);
    if (!entry.value) return { commit: null, value: null };
    const next = change(entry.value);
    const op = kv.atomic().check(entry).set(key, next);
    alsoWrite?.(op);
    return { commit: await commit(op), value: next };
  });
}

/** Issues a new secret; the old one stops working with this commit. Null when not found. */
export async function rotateSecret(
  kv: Deno.Kv,
  box: SecretBox,
  userId: string,
  id: string,
): Promise<{ sub: StoredSubscription; secret: string } | null> {
  const { secret, sealedSecret, prefix } = await issueSecret(box, id);
  const sub = await changeSubscription(
    kv,
    userId,
    id,
    (current) => afterRotation(current, sealedSecret, prefix),
  );
  return sub && { sub, secret };
}

/** Deletes a subscription and lowers the account's count; false when not found. */
export async function deleteSubscription(kv: Deno.Kv, userId: string, id: string) {
  const key = keys.webhookSub(userId, id);
  return await withRetry(async () => {
    const entry = await lookup(kv, key);
    if (entry.versionstamp === null) return { commit: null, value: false };
    const op = kv.atomic().check(entry).delete(key);
    addToCounter(op, keys.webhookSubCount(userId), -1);
    return { commit: await commit(op), value: true };
  });
}
