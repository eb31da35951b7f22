import { deepStrictEqual as eq, equal } from "node:assert/strict";
import { applyBotChanges, recentOrdersOf, type StoredBot } from "../../src/domain/chat/bot.ts";
import {
  feedPost,
  hostOf,
  installUrl,
  nextDue,
  updatePost,
} from "../../src/domain/chat/outgoing.ts";
import type { IntakeLogEntry } from "../../src/domain/intake/reading.ts";
import type { Order } from "../../src/domain/orders/order.ts";

Deno.test("feedPost: the four public values only, cut to the platform's limits", () => {
  eq(feedPost({ itemSummary: "Lamp" }, "Feed"), {
    username: "Feed",
    embeds: [{ title: "Lamp", fields: [] }],
  });
  const long = feedPost({
    itemSummary: "x".repeat(300),
    store: "S",
    price: "p".repeat(2000),
    imageUrl: "https://i.example/a.png",
  }, "Feed");
  const embed = long.embeds[0];
  equal(embed.title.length, 256);
  equal(embed.title.at(-1), "…");
  eq(embed.fields.map((f) => [f.name, f.value.length]), [["Store", 1], ["Price", 1024]]);
  eq(embed.thumbnail, { url: "https://i.example/a.png" });
  // A cut never leaves half a surrogate pair.
  const emoji = feedPost({ itemSummary: "😀".repeat(200) }, "F").embeds[0].title;
  equal(emoji.length <= 256 && !/[\ud800-\udbff]…$/.test(emoji), true);
});

Deno.test("updatePost: one embed; absent fields left out", () => {
  const order = {
    id: "ord_1",
    itemSummary: "Lamp",
    status: "shipped",
    receivedAt: "2025-01-01T00:00:00.000Z",
  } as Order;
  eq(updatePost("shipped", order, Date.parse("2025-01-02T00:00:00.000Z")), {
    embeds: [{
      title: "Order shipped",
      description: "Lamp",
      color: 0x3b82f6,
      fields: [],
      timestamp: "2025-01-02T00:00:00.000Z",
    }],
  });
});

Deno.test("hostOf, nextDue and installUrl", () => {
  equal(hostOf("https://discord.com/api/webhooks/1/secret"), "discord.com");
  equal(hostOf("http://127.0.0.1:8080/x"), "127.0.0.1:8080");
  equal(hostOf("not a url"), undefined);
  equal(hostOf(undefined), undefined);
  equal(nextDue(100, 10, 50), 100);
  equal(nextDue(100, 10, 100), 110);
  equal(nextDue(100, 10, 135), 140);
  equal(
    installUrl("42", "https://chat.example/api/v10"),
    "https://chat.example/oauth2/authorize?client_id=42&scope=bot+applications.commands&permissions=19456",
  );
});

Deno.test("bots: changes and recent orders", () => {
  const bot: StoredBot = {
    id: "bot_1",
    userId: "usr_1",
    name: "A",
    handle: "h",
    slug: "s",
    active: true,
    outputWebhook: "https://x.example/h",
    createdAt: "2025-01-01T00:00:00.000Z",
  };
  const changed = applyBotChanges(bot, { outputWebhook: null, name: "B" }, 0);
  eq([changed.name, changed.outputWebhook, changed.active], ["B", undefined, true]);
  eq(applyBotChanges(bot, {}, 0).outputWebhook, "https://x.example/h");
  const entry = (id: string, orderId?: string): IntakeLogEntry => ({
    id,
    channel: "chat",
    receivedAt: id,
    outcome: orderId ? "created" : "ignored",
    ...(orderId ? { orderId, itemSummary: `item ${orderId}` } : {}),
  });
  const entries = [
    entry("9", "a"),
    entry("8"),
    entry("7", "a"),
    ...["b", "c", "d", "e", "f"].map((o, i) => entry(String(6 - i), o)),
  ];
  eq(recentOrdersOf(entries).map((r) => r.orderId), ["a", "b", "c", "d", "e"]);
});
