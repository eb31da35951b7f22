import { deepStrictEqual as eq, equal } from "node:assert/strict";
import { CHAT_LIMITS, parseChatBody } from "../../../src/intake/chat/body.ts";

Deno.test("the body keeps only the parts it knows, cut to the platform's limits", () => {
  const body = parseChatBody({
    content: "c",
    username: 7,
    tts: true,
    embeds: [{
      title: true,
      color: 5,
      fields: [{ name: "n", value: 3, inline: true }, { inline: true }, "x"],
      thumbnail: "not an object",
      author: { name: "a", icon_url: "https://i.example/a.png" },
    }],
  });
  eq(body, {
    content: "c",
    username: "7",
    embeds: [{ title: "true", fields: [{ name: "n", value: "3" }], author: { name: "a" } }],
  });
  equal(parseChatBody("x"), null);
  equal(parseChatBody([]), null);
});

Deno.test("a cut never leaves half a surrogate pair", () => {
  const title = "a".repeat(CHAT_LIMITS.title - 1) + "🎉";
  equal(parseChatBody({ embeds: [{ title }] })?.embeds[0].title, "a".repeat(CHAT_LIMITS.title - 1));
  const content = "b".repeat(CHAT_LIMITS.content + 10);
  equal(parseChatBody({ content })?.content?.length, CHAT_LIMITS.content);
  equal(
    parseChatBody({ embeds: Array.from({ length: 50 }, () => ({ title: "t" })) })?.embeds.length,
    10,
  );
});
