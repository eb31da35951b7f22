import { deepStrictEqual as eq } from "node:assert/strict";
import { chatPostOfForm } from "../../src/intake/chat_form.ts";

Deno.test("chatPostOfForm: payload_json as text or as a file is the body", async () => {
  const json = JSON.stringify({ content: "hi", embeds: [{ title: "Checkout" }] });
  eq(await chatPostOfForm({ payload_json: json, content: "ignored" }), {
    ok: true,
    body: { content: "hi", embeds: [{ title: "Checkout" }] },
  });
  eq(await chatPostOfForm({ payload_json: new File([json], "payload.json") }), {
    ok: true,
    body: { content: "hi", embeds: [{ title: "Checkout" }] },
  });
});

Deno.test("chatPostOfForm: without payload_json, the plain text fields only", async () => {
  eq(
    await chatPostOfForm({ content: "hi", username: "bot", other: "x", file: new File([], "a") }),
    {
      ok: true,
      body: { content: "hi", username: "bot" },
    },
  );
  eq(await chatPostOfForm({ content: new File([], "a") }), { ok: true, body: {} });
});

Deno.test("chatPostOfForm: a payload_json that is not a JSON object names the field", async () => {
  for (const payload of ["not json", "[1]", "null", "3", ""]) {
    eq(await chatPostOfForm({ payload_json: payload }), {
      ok: false,
      error: "payload_json: must be a JSON object",
    }, payload);
  }
});

Deno.test("chatPostOfForm: prototype keys in payload_json are dropped", async () => {
  const out = await chatPostOfForm({ payload_json: '{"content":"x","__proto__":{"a":1}}' });
  eq(out, { ok: true, body: { content: "x" } });
});
