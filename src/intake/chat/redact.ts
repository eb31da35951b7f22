/**
 * The embed that was read, fit for logs and samples: fields and description lines under a
 * private label (email, profile, proxy, payment, account...) are dropped, and addresses that
 * slip through elsewhere (an email in a footer, a proxy in a value) are masked.
 */
import type { ChatEmbed } from "../../domain/intake/chat_embed.ts";
import { privateLine } from "./pairs.ts";
import { cleanText } from "./text.ts";
import { labelMeaning } from "./vocabulary.ts";

/** An address, also one a bot half-masked itself (`j***@example.com`). */
const EMAIL = /[\w.+*-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63})+/g;
/** An IPv4 address with its port, user and password (`203.0.113.4:8000:user:pass`). */
const PROXY = /\b\d{1,3}(?:\.\d{1,3}){3}(?::[^\s:|]{1,64}){0,3}/g;
const URL_CREDENTIALS = /\/\/[^\s/@]{1,128}@/g;

function mask(text: string): string;
function mask(text: string | undefined): string | undefined;
function mask(text: string | undefined): string | undefined {
  return text?.replace(EMAIL, "[email]").replace(PROXY, "[address]")
    .replace(URL_CREDENTIALS, "//[credentials]@");
}

/** Text without its private lines (a bare private label takes the next line with it). */
function withoutPrivateLines(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const kept: string[] = [];
  let skipNext = false;
  for (const line of text.split(/\r\n|\r|\n/)) {
    const clean = cleanText(line);
    if (skipNext && clean !== "") {
      skipNext = false;
      continue;
    }
    const kind = clean === "" ? null : privateLine(clean);
    if (kind === "label") skipNext = true;
    if (kind === null) kept.push(line);
  }
  return mask(kept.join("\n"));
}

export function redactEmbed(embed: ChatEmbed): ChatEmbed {
  const out: ChatEmbed = {
    fields: embed.fields
      .filter((f) => labelMeaning(f.name ?? "")?.kind !== "private")
      .map((f) => ({ name: mask(f.name), value: withoutPrivateLines(f.value) })),
  };
  if (embed.title !== undefined) out.title = mask(embed.title);
  if (embed.description !== undefined) out.description = withoutPrivateLines(embed.description);
  if (embed.url !== undefined) out.url = embed.url;
  if (embed.author) out.author = { ...embed.author, name: mask(embed.author.name) };
  if (embed.footer) out.footer = { text: mask(embed.footer.text) };
  if (embed.thumbnail) out.thumbnail = embed.thumbnail;
  if (embed.image) out.image = embed.image;
  return out;
}
