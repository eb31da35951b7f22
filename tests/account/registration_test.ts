/** REGISTRATION=open|closed|invite: who may create an account. */
import { deepStrictEqual as eq, equal, match } from "node:assert/strict";
import { keys } from "../../src/store/keys.ts";
import { readCounter } from "../../src/store/kv.ts";
import { call, testApp, type TestContext } from "../helpers.ts";

// deno-lint-ignore no-explicit-any -- JSON bodies checked field by field
type Body = Record<string, any>;

let client = 0;
const register = (ctx: TestContext, email: string, extra: Record<string, unknown> = {}) =>
  call<Body>(ctx, "POST", "/api/auth/register", {
    body: { email, password: "correct horse battery", ...extra },
    headers: { "x-forwarded-for": `198.51.100.${++client % 250}` },
  });

Deno.test("closed: the first account is created, every later one is refused", async () => {
  await using ctx = await testApp({ REGISTRATION: "closed" });
  const first = await register(ctx, "owner@example.com");
  equal(first.status, 201);
  const second = await register(ctx, "other@example.com");
  eq([second.status, second.body], [403, {
    error: "New accounts are closed on this server; ask its operator.",
    reason: "closed",
  }]);
  equal(await readCounter(ctx.kv, keys.stat("users")), 1);
  const invite = await call<Body>(ctx, "POST", "/api/account/invitations", {
    token: first.body.token,
  });
  equal(invite.status, 409);
});

Deno.test("closed: two first registrations at once make one account", async () => {
  await using ctx = await testApp({ REGISTRATION: "closed" });
  const answers = await Promise.all(
    ["a@example.com", "b@example.com", "c@example.com"].map((e) => register(ctx, e)),
  );
  eq(answers.map((a) => a.status).sort(), [201, 403, 403]);
  equal(await readCounter(ctx.kv, keys.stat("users")), 1);
});

Deno.test("invite: a single-use link from the account screen admits one account", async () => {
  await using ctx = await testApp({ REGISTRATION: "invite", BASE_URL: "https://o.example.org" });
  const owner = await register(ctx, "owner@example.com");
  equal(owner.status, 201);
  const without = await register(ctx, "guest@example.com");
  eq([without.status, without.body.reason], [403, "invitation_needed"]);

  const issued = await call<Body>(ctx, "POST", "/api/account/invitations", {
    token: owner.body.token,
  });
  equal(issued.status, 201);
  match(issued.body.url, /^https:\/\/o\.example\.org\/register\?invite=[\w-]+$/);
  const invite = new URL(issued.body.url).searchParams.get("invite")!;
  const wrong = await register(ctx, "guest@example.com", { invite: "nope" });
  eq([wrong.status, wrong.body.reason], [403, "invitation_invalid"]);
  const [a, b] = await Promise.all([
    register(ctx, "guest@example.com", { invite }),
    register(ctx, "guest2@example.com", { invite }),
  ]);
  eq([a.status, b.status].sort(), [201, 403], "one invitation, one account");
  const again = await register(ctx, "guest3@example.com", { invite });
  eq([again.status, again.body.reason], [403, "invitation_invalid"]);
  equal(await readCounter(ctx.kv, keys.stat("users")), 2);
});

Deno.test("open (the default): anyone registers; invitations are not needed", async () => {
  await using ctx = await testApp();
  const a = await register(ctx, "a@example.com");
  const b = await register(ctx, "b@example.com");
  eq([a.status, b.status], [201, 201]);
  const invite = await call<Body>(ctx, "POST", "/api/account/invitations", { token: a.body.token });
  eq([invite.status, invite.body.error], [
    409,
    "Anyone may register on this server: no invitation is needed.",
  ]);
});
