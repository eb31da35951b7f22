import assert from "node:assert/strict";
import { keys } from "../../src/store/keys.ts";
import { call, signUp, testApp } from "../helpers.ts";
import { closedPort, fakeServer, type Received } from "./fakes.ts";

const CLIENT_ID = "1234567890";

interface Grant {
  application: string;
  user: Record<string, unknown>;
}

/** The chat platform's API: `/oauth2/@me` and `/users/@me` for the tokens it issued. */
function platform(grants: Record<string, Grant>) {
  return fakeServer((req: Received) => {
    const token = req.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
    const grant = grants[token];
    if (!grant) return Response.json({ message: "401: Unauthorized", code: 0 }, { status: 401 });
    if (req.path === "/api/v10/oauth2/@me") {
      return Response.json({
        application: { id: grant.application, name: "App" },
        scopes: ["identify", "email"],
        expires: "2030-01-01T00:00:00+00:00",
        user: { id: grant.user.id, username: grant.user.username },
      });
    }
    if (req.path === "/api/v10/users/@me") return Response.json(grant.user);
    return Response.json({ message: "404: Not Found" }, { status: 404 });
  });
}

const verify = (ctx: Awaited<ReturnType<typeof testApp>>, accessToken?: string) =>
  call(ctx, "POST", "/api/auth/discord/widget-verify", { body: { accessToken } });

const SAM = {
  id: "80351110224678912",
  username: "sam",
  global_name: "Sam",
  email: "sam@example.com",
  verified: true,
};

Deno.test("discord: a token of our app signs in the linked account", async () => {
  await using api = platform({
    good: { application: CLIENT_ID, user: SAM },
  });
  await using ctx = await testApp({
    DISCORD_CLIENT_ID: CLIENT_ID,
    DISCORD_API_BASE: `${api.url}/api/v10`,
  });
  const first = await verify(ctx, "good");
  assert.equal(first.status, 200);
  const user = first.body.user as Record<string, unknown>;
  assert.equal(user.email, "sam@example.com");
  assert.equal(user.displayName, "Sam");
  assert.equal(user.emailVerified, true);
  for (const req of api.received) assert.equal(req.headers.get("authorization"), "Bearer good");
  assert.deepEqual(api.received.map((r) => r.path).sort(), [
    "/api/v10/oauth2/@me",
    "/api/v10/users/@me",
  ]);

  const again = await verify(ctx, "good");
  assert.equal((again.body.user as { id: string }).id, user.id);
  assert.equal(
    (await call(ctx, "GET", "/api/auth/me", { token: again.body.token as string })).status,
    200,
  );
});

Deno.test("discord: an existing account is linked by the platform's verified email only", async () => {
  await using api = platform({
    unverified: { application: CLIENT_ID, user: { ...SAM, verified: false } },
    verified: { application: CLIENT_ID, user: SAM },
    noEmail: { application: CLIENT_ID, user: { id: "1", username: "x" } },
  });
  await using ctx = await testApp({
    DISCORD_CLIENT_ID: CLIENT_ID,
    DISCORD_API_BASE: `${api.url}/api/v10`,
  });
  const { user } = await signUp(ctx, { email: "sam@example.com", emailVerified: true });
  const unverified = await verify(ctx, "unverified");
  assert.equal(unverified.status, 403);
  assert.equal(unverified.body.code, "email_unverified");
  const verified = await verify(ctx, "verified");
  assert.equal(verified.status, 200);
  assert.equal((verified.body.user as { id: string }).id, user.id);
  const noEmail = await verify(ctx, "noEmail");
  assert.equal(noEmail.status, 400);
  assert.equal(noEmail.body.code, "email_missing");
});

Deno.test("discord: bad, foreign and missing tokens; a broken platform is a 502", async () => {
  await using api = platform({
    foreign: { application: "999", user: SAM },
    broken: { application: CLIENT_ID, user: {} },
  });
  await using ctx = await testApp({
    DISCORD_CLIENT_ID: CLIENT_ID,
    DISCORD_API_BASE: `${api.url}/api/v10`,
  });
  const cases: [string | undefined, number, string][] = [
    [undefined, 400, "missing_token"],
    ["revoked", 401, "invalid_token"],
    ["foreign", 401, "invalid_token"],
    ["broken", 502, "provider_error"],
  ];
  for (const [token, status, code] of cases) {
    const res = await verify(ctx, token);
    assert.equal(res.status, status, String(token));
    assert.equal(res.body.code, code);
  }
  const foreign = await verify(ctx, "foreign");
  assert.equal(foreign.body.error, "Chat-platform token was issued to another application");
});

Deno.test("discord: unreachable platform 502, platform errors 502, not configured 503", async () => {
  await using down = await testApp({
    DISCORD_CLIENT_ID: CLIENT_ID,
    DISCORD_API_BASE: `http://127.0.0.1:${closedPort()}/api/v10`,
  });
  const unreachable = await verify(down, "good");
  assert.equal(unreachable.status, 502);
  assert.deepEqual(unreachable.body, {
    error: "Chat platform is unreachable",
    code: "provider_unreachable",
  });

  await using failing = fakeServer(() => new Response("upstream error", { status: 503 }));
  await using sick = await testApp({
    DISCORD_CLIENT_ID: CLIENT_ID,
    DISCORD_API_BASE: failing.url,
  });
  const res = await verify(sick, "good");
  assert.equal(res.status, 502);
  assert.deepEqual(res.body, { error: "Chat platform answered HTTP 503", code: "provider_error" });

  await using off = await testApp();
  const disabled = await verify(off, "good");
  assert.equal(disabled.status, 503);
  assert.equal(disabled.body.code, "not_configured");
});

Deno.test("discord: an unverified platform email opens no account", async () => {
  await using api = platform({
    unverified: { application: CLIENT_ID, user: { ...SAM, verified: false } },
  });
  await using ctx = await testApp({
    DISCORD_CLIENT_ID: CLIENT_ID,
    DISCORD_API_BASE: `${api.url}/api/v10`,
  });
  const res = await verify(ctx, "unverified");
  assert.equal(res.status, 403);
  assert.equal(res.body.code, "email_unverified");
  assert.equal((await ctx.kv.get(keys.userByEmail(SAM.email))).value, null);
});
