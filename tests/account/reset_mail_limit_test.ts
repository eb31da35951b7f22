/**
 * Reset mail (issue 21, part 5): at most 3 requests an hour per address, from any number of
 * client addresses, and the same work whether or not the account exists.
 */
import assert from "node:assert/strict";
import {
  RESET_ANSWER_FLOOR_MS,
  RESET_MAIL_WINDOW_MS,
  takeResetMailTurn,
} from "../../src/domain/account/password_reset.ts";
import { requestReset } from "../../src/store/account/password_resets.ts";
import { call, signUp, testApp } from "../helpers.ts";

let client = 0;
const ask = (ctx: Awaited<ReturnType<typeof testApp>>, email: string) =>
  call(ctx, "POST", "/api/auth/forgot-password", {
    body: { email },
    headers: { "x-forwarded-for": `192.0.2.${++client % 250}` },
  });

Deno.test("forgot: a 4th request for one address within the hour is 429, from any IP", async () => {
  let now = Date.parse("2026-03-01T10:00:00.000Z");
  await using ctx = await testApp({}, { now: () => now });
  await signUp(ctx, { email: "sam@example.com" });
  for (const email of ["sam@example.com", "SAM@example.com ", "sam@example.com"]) {
    assert.deepEqual((await ask(ctx, email)).body, { ok: true });
    now += 60_000;
  }
  const fourth = await ask(ctx, "sam@example.com");
  assert.equal(fourth.status, 429);
  assert.deepEqual(fourth.body, {
    error: "Too many reset requests for this address; try again later",
  });
  assert.equal(fourth.headers.get("retry-after"), String(60 * 60 - 3 * 60));
  await ctx.deps.background.drain();
  const mails = ctx.logs.filter((l) => l.includes("reset-password?token="));
  assert.equal(mails.length, 3, "three mails, not four");

  // Unknown addresses count the same (a 429 tells nothing about accounts); others are free.
  for (let i = 0; i < 3; i++) assert.equal((await ask(ctx, "nobody@example.com")).status, 200);
  assert.equal((await ask(ctx, "nobody@example.com")).status, 429);
  assert.equal((await ask(ctx, "other@example.com")).status, 200);

  now += RESET_MAIL_WINDOW_MS - 3 * 60_000 + 1;
  assert.equal((await ask(ctx, "sam@example.com")).status, 200, "the oldest left the window");
  assert.equal((await ask(ctx, "sam@example.com")).status, 429);
});

Deno.test("reset mail turns: a sliding hour of three", () => {
  const t = 10_000_000;
  assert.deepEqual(takeResetMailTurn([], t), { ok: true, times: [t] });
  assert.deepEqual(takeResetMailTurn([t - 3, t - 1, t - 2], t), {
    ok: false,
    retryAfterMs: 3_599_997,
  });
  assert.deepEqual(takeResetMailTurn([t - RESET_MAIL_WINDOW_MS, t - 2, t - 1], t), {
    ok: true,
    times: [t - 2, t - 1, t],
  });
});

/** The store's round trips a call makes (reads and commits), through a view of a real KV. */
function counting(kv: Deno.Kv) {
  const trips: string[] = [];
  const view = <T extends object>(target: T): T => {
    const proxy: T = new Proxy(target, {
      get(t, name) {
        const value = Reflect.get(t, name, t);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          if (["get", "getMany", "list", "commit"].includes(String(name))) {
            trips.push(String(name));
          }
          const result = value.apply(t, args);
          if (name === "atomic") return view(result);
          return result === t ? proxy : result;
        };
      },
    });
    return proxy;
  };
  return { kv: view(kv), trips };
}

Deno.test("forgot: an unknown address costs the same reads and commit as an account", async () => {
  await using ctx = await testApp();
  await signUp(ctx, { email: "sam@example.com" });
  const known = counting(ctx.kv);
  const sent = await requestReset(known.kv, "sam@example.com");
  assert.ok(sent.ok && sent.mail, "the account gets its link");
  const unknown = counting(ctx.kv);
  assert.deepEqual(await requestReset(unknown.kv, "nobody@example.com"), { ok: true });
  assert.deepEqual(unknown.trips, known.trips);
  assert.deepEqual(known.trips, ["getMany", "get", "commit"]);
});

Deno.test("forgot: an account and an unknown address both answer after the floor, not sooner", async () => {
  await using ctx = await testApp();
  await signUp(ctx, { email: "sam@example.com" });
  for (const email of ["sam@example.com", "nobody@example.com"]) {
    const started = performance.now();
    assert.deepEqual((await ask(ctx, email)).body, { ok: true });
    const took = performance.now() - started;
    assert.ok(took >= RESET_ANSWER_FLOOR_MS - 1, `${email}: ${took} ms`);
  }
});
