/**
 * Embed samples: the redacted embed of each recent chat post that was ignored, kept so a user
 * can see what a bot sends and write a template for it (`GET /api/embed-samples`). Written in
 * the commit of the post's log entry; each expires after a month.
 */
import type { IntakeLogEntry } from "../../domain/intake/reading.ts";
import type { ChatEmbed } from "../../domain/intake/chat_embed.ts";
import { keys } from "../keys.ts";
import { commit, lookup } from "../kv.ts";

export const SAMPLE_TTL_MS = 30 * 86_400_000;
/** The newest this many are listed. */
export const SAMPLES_LISTED = 50;

export interface EmbedSample {
  /** The post's log entry id. */
  id: string;
  receivedAt: string;
  botId?: string;
  /** Why the post was ignored. */
  why?: string;
  embed: ChatEmbed;
}

/** An ignored post's sample, in the commit of its log entry. */
export function sampleWrites(
  op: Deno.AtomicOperation,
  userId: string,
  entry: IntakeLogEntry,
  embed: ChatEmbed,
) {
  const sample: EmbedSample = {
    id: entry.id,
    receivedAt: entry.receivedAt,
    ...(entry.sourceId ? { botId: entry.sourceId } : {}),
    ...(entry.why ? { why: entry.why } : {}),
    embed,
  };
  op.set(keys.embedSample(userId, entry.id), sample, { expireIn: SAMPLE_TTL_MS });
}

/** The newest samples, newest first; expired ones (stored time past) are left out. */
export async function listSamples(kv: Deno.Kv, userId: string, now: number) {
  const out: EmbedSample[] = [];
  const iter = kv.list<EmbedSample>({ prefix: keys.embedSamples(userId) }, {
    reverse: true,
    limit: SAMPLES_LISTED,
  });
  for await (const e of iter) {
    if (Date.parse(e.value.receivedAt) + SAMPLE_TTL_MS > now) out.push(e.value);
  }
  return out;
}

/** False when there is no such sample. */
export async function deleteSample(kv: Deno.Kv, userId: string, id: string): Promise<boolean> {
  const entry = await lookup(kv, keys.embedSample(userId, id));
  if (!entry.versionstamp) return false;
  return (await commit(kv.atomic().check(entry).delete(entry.key))).ok;
}
