/**
 * The chat platform's execute-webhook body, validated leniently: unknown keys are dropped, a
 * part of the wrong type is absent, lists and strings are cut to the platform's own limits
 * (research: SOURCES.md A.1). Nothing here throws; a body that is not an object is `null`.
 */
import { z } from "@hono/zod-openapi";
import type { ChatEmbed } from "../../domain/intake/chat_embed.ts";

/** The platform's limits: a post never has more, so more is cut, never an error. */
export const CHAT_LIMITS = {
  embeds: 10,
  fields: 25,
  title: 256,
  description: 4096,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  authorName: 256,
  content: 2000,
  username: 80,
  url: 2048,
} as const;

export interface ChatBody {
  content?: string;
  username?: string;
  embeds: ChatEmbed[];
}

/** Cuts at `max` UTF-16 units without leaving half a surrogate pair. */
function cut(s: string, max: number): string {
  if (s.length <= max) return s;
  const code = s.charCodeAt(max - 1);
  return s.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** A string, cut to `max`; a finite number or a boolean as its text (some bots send numbers). */
const text = (max: number) =>
  z.unknown().optional().transform((v): string | undefined => {
    if (typeof v === "string") return cut(v, max);
    if ((typeof v === "number" && Number.isFinite(v)) || typeof v === "boolean") return String(v);
    return undefined;
  });

/**
 * The first `max` elements that validate and hold something; anything but an array is an empty
 * list.
 */
function list<S extends z.ZodType>(item: S, max: number) {
  return z.unknown().optional().transform((v): z.output<S>[] => {
    if (!Array.isArray(v)) return [];
    const out: z.output<S>[] = [];
    for (const element of v.slice(0, max)) {
      const parsed = item.safeParse(element);
      if (parsed.success && Object.values(parsed.data as object).some((x) => x !== undefined)) {
        out.push(parsed.data);
      }
    }
    return out;
  });
}

/** An optional sub-object: absent when missing or not an object. */
const part = <S extends z.ZodRawShape>(shape: S) => z.object(shape).optional().catch(undefined);

const media = part({ url: text(CHAT_LIMITS.url) });

const fieldSchema = z.object({
  name: text(CHAT_LIMITS.fieldName),
  value: text(CHAT_LIMITS.fieldValue),
});

const embedSchema = z.object({
  title: text(CHAT_LIMITS.title),
  description: text(CHAT_LIMITS.description),
  url: text(CHAT_LIMITS.url),
  author: part({ name: text(CHAT_LIMITS.authorName), url: text(CHAT_LIMITS.url) }),
  footer: part({ text: text(CHAT_LIMITS.footer) }),
  thumbnail: media,
  image: media,
  fields: list(fieldSchema, CHAT_LIMITS.fields),
});

const bodySchema = z.object({
  content: text(CHAT_LIMITS.content),
  username: text(CHAT_LIMITS.username),
  embeds: list(embedSchema, CHAT_LIMITS.embeds),
});

/** The post's readable parts, bounded; `null` when the body is not a JSON object. */
export function parseChatBody(body: unknown): ChatBody | null {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return null;
  const parsed = bodySchema.safeParse(body);
  return parsed.success ? dropEmpty(parsed.data) as ChatBody : null;
}

/** Drops `undefined` keys at every level, so a parsed post holds only what was sent. */
function dropEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropEmpty);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = dropEmpty(v);
  return out;
}
