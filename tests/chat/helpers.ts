import type { BotView } from "../../src/domain/chat/bot.ts";
import { jobContext } from "../../src/jobs/registry.ts";
import { call, type CallResult, type TestContext } from "../helpers.ts";
import { webhookApp, type WebhookContext } from "../webhooks/helpers.ts";

/**
 * An app whose outbound requests may reach 127.0.0.1 (`ALLOWED_PRIVATE_ADDRESSES`), with the
 * job registry's queue handlers (webhook delivery and chat relays) listening unless
 * `listen: false`.
 */
export function chatApp(
  options: { env?: Record<string, string>; listen?: boolean; now?: () => number } = {},
): Promise<WebhookContext> {
  return webhookApp({ ...options, handlers: (deps) => jobContext(deps).queue });
}

/** A bot as the API shows it. */
export type Bot = BotView;

export async function makeBot(
  ctx: TestContext,
  token: string,
  body: Record<string, unknown> = {},
): Promise<Bot> {
  const res = await call<{ bot: Bot }>(ctx, "POST", "/api/bots", {
    token,
    body: { name: "Checkout bot", ...body },
  });
  if (res.status !== 201) throw new Error(`bot: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.bot;
}

/** The path part of a bot's URL (`/api/webhooks/chat/<handle>/<slug>`). */
export const pathOf = (bot: Bot) => new URL(bot.url).pathname;

let client = 0;

/** Posts to a bot's URL, from a fresh client address unless `ip` is given (60/min per IP). */
export function postTo(
  ctx: TestContext,
  bot: Bot,
  body: unknown,
  options: { ip?: string; query?: string } = {},
): Promise<CallResult> {
  return call(ctx, "POST", pathOf(bot) + (options.query ?? ""), {
    body,
    headers: { "x-forwarded-for": options.ip ?? `203.0.113.${++client % 250}` },
  });
}

/** A checkout post in a common bot layout, with our own invented values. */
export function checkout(fields: Record<string, string> = {}, extra: Record<string, unknown> = {}) {
  const values = {
    Store: "Nike US",
    Product: "Dunk Low Retro 'Panda'",
    Size: "10",
    Price: "$115.00",
    Order: "||C0001||",
    Profile: "||Main Visa||",
    Email: "||sam.buyer@example.com||",
    Proxy: "||203.0.113.9:8000:user:pass||",
    ...fields,
  };
  return {
    username: "Cook Group Bot",
    embeds: [{
      title: "Successful Checkout!",
      thumbnail: { url: "https://images.example.com/dunk-panda.png" },
      fields: Object.entries(values).map(([name, value]) => ({ name, value, inline: true })),
      footer: { text: "Bot v1.2" },
    }],
    ...extra,
  };
}

/** A post that is not a checkout (a decline with the same fields). */
export function decline() {
  const post = checkout();
  post.embeds[0].title = "Payment Declined";
  return post;
}
