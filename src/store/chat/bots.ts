/**
 * Bots in KV: the record, a global copy under its URL (the account's handle and the SHA-256 of
 * its slug: what an intake URL finds in one read), the workspace's count, and per-bot tallies
 * written with each post's log entry. The record and its copy change in one commit, so a
 * rotated or deleted URL stops at once.
 */
import {
  applyBotChanges,
  type BotChanges,
  type BotStats,
  botView,
  exportedBot,
  recentOrdersOf,
  type StoredBot,
} from "../../domain/chat/bot.ts";
import type { IntakeLogEntry } from "../../domain/intake/reading.ts";
import type { UserRecord } from "../../domain/account/user.ts";
import { sha256Hex, timingSafeEqual } from "../../lib/crypto.ts";
import { newId, randomToken } from "../../lib/ids.ts";
import { latestIntakeEntries } from "../intake/log.ts";
import { keys } from "../keys.ts";
import {
  addToCounter,
  commit,
  counterValue,
  lookup,
  lookupMany,
  type Paging,
  readCounter,
  withRetry,
} from "../kv.ts";
import type { WorkspaceContext } from "../sections.ts";

/** 144 random bits, URL-safe. */
const newSlug = () => randomToken(18);

/** The outcomes a bot keeps a count of, in `BotStats` order. */
const TALLIED = new Set(["created", "merged", "rejected"]);

/** The global copy's key. */
const urlKey = async (bot: Pick<StoredBot, "handle" | "slug">) =>
  keys.botByUrl(bot.handle, await sha256Hex(bot.slug));

/** The record and its URL copy, in `op`. */
async function writeBot(op: Deno.AtomicOperation, bot: StoredBot) {
  op.set(keys.bot(bot.userId, bot.id), bot).set(await urlKey(bot), bot);
}

export interface NewBot {
  name: string;
  outputWebhook?: string;
  active: boolean;
}

/** Creates a bot for the account (checked in the commit); null when the account is gone. */
export async function createBot(
  kv: Deno.Kv,
  user: UserRecord,
  input: NewBot,
  now: number,
): Promise<StoredBot | null> {
  const bot: StoredBot = {
    id: newId("bot", now),
    userId: user.id,
    name: input.name,
    handle: user.webhookHandle,
    slug: newSlug(),
    active: input.active,
    ...(input.outputWebhook ? { outputWebhook: input.outputWebhook } : {}),
    createdAt: new Date(now).toISOString(),
  };
  return await withRetry(async () => {
    const account = await kv.get(keys.user(user.id));
    if (!account.versionstamp) return { commit: null, value: null };
    const op = kv.atomic().check(account).check({
      key: keys.bot(user.id, bot.id),
      versionstamp: null,
    });
    await writeBot(op, bot);
    addToCounter(op, keys.botCount(user.id), 1);
    return { commit: await commit(op), value: bot };
  });
}

/** A page of the account's bots, newest first, and how many there are. */
export async function listBots(
  kv: Deno.Kv,
  userId: string,
  paging: Paging,
): Promise<{ items: StoredBot[]; total: number }> {
  const items: StoredBot[] = [];
  let skip = paging.offset;
  const wanted = paging.offset + paging.limit;
  const [, total] = await Promise.all([
    (async () => {
      const iter = kv.list<StoredBot>({ prefix: keys.bots(userId) }, {
        reverse: true,
        limit: wanted,
        batchSize: Math.min(500, wanted),
      });
      for await (const e of iter) {
        if (skip > 0) skip--;
        else items.push(e.value);
      }
    })(),
    readCounter(kv, keys.botCount(userId)),
  ]);
  return { items, total };
}

async function allBots(kv: Deno.Kv, userId: string): Promise<StoredBot[]> {
  const out: StoredBot[] = [];
  for await (const e of kv.list<StoredBot>({ prefix: keys.bots(userId) }, { reverse: true })) {
    out.push(e.value);
  }
  return out;
}

export async function getBot(kv: Deno.Kv, userId: string, id: string): Promise<StoredBot | null> {
  return (await lookup<StoredBot>(kv, keys.bot(userId, id))).value;
}

/**
 * Applies a change (a PATCH, a new slug) with optimistic concurrency; the slug copy moves with
 * a new slug in the same commit. Null when the bot does not exist.
 */
async function changeBot(
  kv: Deno.Kv,
  userId: string,
  id: string,
  change: (bot: StoredBot) => StoredBot,
): Promise<StoredBot | null> {
  const key = keys.bot(userId, id);
  return await withRetry(async () => {
    const entry = await lookup<StoredBot>(kv, key);
    if (!entry.value) return { commit: null, value: null };
    const next = change(entry.value);
    const op = kv.atomic().check(entry);
    if (next.slug !== entry.value.slug) {
      op.delete(await urlKey(entry.value));
    }
    await writeBot(op, next);
    return { commit: await commit(op), value: next };
  });
}

export function updateBot(
  kv: Deno.Kv,
  userId: string,
  id: string,
  changes: BotChanges,
  now: number,
) {
  return changeBot(kv, userId, id, (bot) => applyBotChanges(bot, changes, now));
}

/** A new slug: the old URL answers 401 from this commit on. */
export function rotateBotSlug(kv: Deno.Kv, userId: string, id: string, now: number) {
  return changeBot(kv, userId, id, (bot) => ({
    ...bot,
    slug: newSlug(),
    updatedAt: new Date(now).toISOString(),
  }));
}

/** Deletes a bot, its slug copy and its tallies (its log entries stay with the orders). */
export async function deleteBot(kv: Deno.Kv, userId: string, id: string): Promise<boolean> {
  const key = keys.bot(userId, id);
  return await withRetry(async () => {
    const entry = await lookup<StoredBot>(kv, key);
    if (!entry.value) return { commit: null, value: false };
    const op = kv.atomic().check(entry).delete(key)
      .delete(await urlKey(entry.value));
    for (const name of TALLIED) op.delete(keys.botTally(userId, id, name));
    addToCounter(op, keys.botCount(userId), -1);
    return { commit: await commit(op), value: true };
  });
}

/**
 * The active bot an intake URL names (`<handle>/<slug>`), or null whatever is wrong: one read
 * of the URL's copy, found by the slug's hash (the lookup's timing tells nothing about the
 * slug), then the slug compared in constant time.
 */
export async function findBotByUrl(
  kv: Deno.Kv,
  handle: string,
  slug: string,
): Promise<StoredBot | null> {
  const bot = (await lookup<StoredBot>(kv, await urlKey({ handle, slug }))).value;
  if (!bot || !timingSafeEqual(bot.slug, slug) || !bot.active) return null;
  return bot;
}

/** The URL copies an account owns (for account deletion). */
export async function botUrlKeysOf(kv: Deno.Kv, userId: string): Promise<Deno.KvKey[]> {
  return await Promise.all((await allBots(kv, userId)).map(urlKey));
}

/** A post's tally, in the commit of its log entry (ignored posts are counted by the log). */
export function tallyPost(op: Deno.AtomicOperation, userId: string, entry: IntakeLogEntry) {
  const botId = entry.sourceId;
  if (botId && TALLIED.has(entry.outcome)) {
    addToCounter(op, keys.botTally(userId, botId, entry.outcome), 1);
  }
}

/** The tallies, and the newest post of the bot's log (`lastPostAt`). */
export async function botStats(kv: Deno.Kv, userId: string, botId: string): Promise<BotStats> {
  const [[created, merged, rejected], [newest]] = await Promise.all([
    lookupMany<Deno.KvU64[]>(kv, [...TALLIED].map((n) => keys.botTally(userId, botId, n))),
    latestIntakeEntries(kv, userId, { sourceId: botId }, 1),
  ]);
  return {
    orders: counterValue(created.value),
    merged: counterValue(merged.value),
    rejected: counterValue(rejected.value),
    ...(newest ? { lastPostAt: newest.receivedAt } : {}),
  };
}

/** How many of a bot's newest posts are read to find its recent orders. */
const RECENT_SCAN = 50;

/** The snapshot's `bots`: each as its endpoint shows it, with `stats` and `recentOrders`. */
export async function botsSection(ctx: WorkspaceContext) {
  const bots = await allBots(ctx.kv, ctx.user.id);
  return await Promise.all(bots.map(async (bot) => {
    const [stats, latest] = await Promise.all([
      botStats(ctx.kv, ctx.user.id, bot.id),
      latestIntakeEntries(ctx.kv, ctx.user.id, { sourceId: bot.id }, RECENT_SCAN),
    ]);
    return { ...botView(bot, ctx.baseUrl), stats, recentOrders: recentOrdersOf(latest) };
  }));
}

/** The export's `bots`: no slug, URLs cut to their host. */
export async function botsExport(ctx: WorkspaceContext) {
  return (await allBots(ctx.kv, ctx.user.id)).map((bot) => exportedBot(bot, ctx.baseUrl));
}
