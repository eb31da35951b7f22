import assert from "node:assert/strict";
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import { loadConfig } from "../../src/config.ts";
import { keys } from "../../src/store/keys.ts";
import { call, signUp, testApp } from "../helpers.ts";
import { closedPort, fakeServer } from "./fakes.ts";

const ISSUER = "https://signin.example.com";
const AUDIENCE = "order-tracker";

/** A sign-in service: a signing key published in a JWKS on loopback. */
async function signInService() {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  const jwk = { ...await exportJWK(publicKey), kid: "key-1", alg: "ES256", use: "sig" };
  const jwks = fakeServer(() => Response.json({ keys: [jwk] }));
  const sign = (
    claims: JWTPayload,
    options: {
      key?: CryptoKey;
      kid?: string;
      expiresIn?: string | number;
      issuer?: string;
      audience?: string;
    } = {},
  ) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: "ES256", kid: options.kid ?? "key-1" })
      .setIssuer(options.issuer ?? ISSUER)
      .setAudience(options.audience ?? AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(options.expiresIn ?? "5m")
      .sign(options.key ?? privateKey);
  return {
    jwks,
    sign,
    env: {
      ATLAS_ISSUER: ISSUER,
      ATLAS_AUDIENCE: AUDIENCE,
      ATLAS_JWKS_URL: `${jwks.url}/.well-known/jwks.json`,
    },
  };
}

let client = 0;
/** One exchange, each from its own client address so the shared rate limit stays out of it. */
const exchange = (ctx: Awaited<ReturnType<typeof testApp>>, token?: string) =>
  call(ctx, "POST", "/api/auth/atlas-login", {
    body: { token },
    headers: { "x-forwarded-for": `198.51.100.${++client % 250}` },
  });

Deno.test("atlas-login: a good token creates the account once, then signs it in", async () => {
  const service = await signInService();
  await using _jwks = service.jwks;
  await using ctx = await testApp(service.env);
  const token = await service.sign({
    sub: "atlas|42",
    email: "New.User@Example.com",
    email_verified: true,
    name: "New User",
  });
  const first = await exchange(ctx, token);
  assert.equal(first.status, 200);
  assert.match(first.body.token as string, /^[0-9a-f]{64}$/);
  const user = first.body.user as Record<string, unknown>;
  assert.equal(user.email, "new.user@example.com");
  assert.equal(user.emailVerified, true);
  assert.equal(user.displayName, "New User");
  assert.equal(user.plan, "free");
  assert.ok(!("identities" in user));
  assert.equal(service.jwks.received[0].path, "/.well-known/jwks.json");

  const again = await exchange(ctx, await service.sign({ sub: "atlas|42" }));
  assert.equal(again.status, 200, "linked by subject: no email needed the second time");
  assert.equal((again.body.user as { id: string }).id, user.id);
  const me = await call(ctx, "GET", "/api/auth/me", { token: again.body.token as string });
  assert.equal(me.status, 200);
});

Deno.test("atlas-login: links an existing account only by a verified email", async () => {
  const service = await signInService();
  await using _jwks = service.jwks;
  await using ctx = await testApp(service.env);
  const { user } = await signUp(ctx, { email: "sam@example.com", emailVerified: true });

  const unverified = await exchange(
    ctx,
    await service.sign({ sub: "atlas|7", email: "sam@example.com", email_verified: false }),
  );
  assert.equal(unverified.status, 403);
  assert.equal(unverified.body.code, "email_unverified");

  const verified = await exchange(
    ctx,
    await service.sign({ sub: "atlas|7", email: "SAM@example.com", email_verified: true }),
  );
  assert.equal(verified.status, 200);
  assert.equal((verified.body.user as { id: string }).id, user.id);
  assert.equal((await ctx.kv.get(keys.userByIdentity("atlas", "atlas|7"))).value, user.id);

  const second = await exchange(
    ctx,
    await service.sign({ sub: "atlas|8", email: "sam@example.com", email_verified: true }),
  );
  assert.equal(second.status, 409);
  assert.equal(second.body.code, "already_linked");
});

Deno.test("atlas-login: bad tokens fail with a short code", async () => {
  const service = await signInService();
  await using _jwks = service.jwks;
  await using ctx = await testApp(service.env);
  const stranger = await generateKeyPair("ES256");
  const hmac = await new SignJWT({ sub: "x" }).setProtectedHeader({ alg: "HS256" })
    .setIssuer(ISSUER).setAudience(AUDIENCE).setExpirationTime("5m")
    .sign(new TextEncoder().encode("a shared secret of thirty-two bytes!"));
  const cases: [string | undefined, number, string][] = [
    [undefined, 400, "missing_token"],
    ["", 400, "missing_token"],
    ["not a jwt", 401, "invalid_token"],
    [await service.sign({ sub: "x" }, { expiresIn: "-1m" }), 401, "expired_token"],
    [await service.sign({ sub: "x" }, { key: stranger.privateKey }), 401, "invalid_token"],
    [await service.sign({ sub: "x" }, { kid: "unknown-kid" }), 401, "invalid_token"],
    [await service.sign({ sub: "x" }, { audience: "another-app" }), 401, "invalid_token"],
    [await service.sign({}), 401, "invalid_token"],
    [hmac, 401, "invalid_token"],
    [
      await service.sign({ sub: "x" }, { issuer: "https://evil.example.com" }),
      401,
      "invalid_token",
    ],
    [await service.sign({ sub: "atlas|no-email" }), 400, "email_missing"],
  ];
  for (const [token, status, code] of cases) {
    const res = await exchange(ctx, token);
    assert.equal(res.status, status, `${code}: ${token}`);
    assert.equal(res.body.code, code);
    assert.equal(typeof res.body.error, "string");
  }
});

Deno.test("atlas-login: expiry follows the service clock of the app", async () => {
  const service = await signInService();
  await using _jwks = service.jwks;
  let now = Date.now();
  await using ctx = await testApp(service.env, { now: () => now });
  const token = await service.sign({
    sub: "atlas|1",
    email: "a@example.com",
    email_verified: true,
  });
  assert.equal((await exchange(ctx, token)).status, 200);
  now += 10 * 60 * 1000;
  const late = await exchange(ctx, token);
  assert.equal(late.status, 401);
  assert.equal(late.body.code, "expired_token");
});

Deno.test("atlas-login: an unreachable key set is a 502; no issuer is a 503", async () => {
  const service = await signInService();
  await service.jwks.close();
  await using down = await testApp({
    ...service.env,
    ATLAS_JWKS_URL: `http://127.0.0.1:${closedPort()}/jwks.json`,
  });
  const res = await exchange(down, await service.sign({ sub: "x" }));
  assert.equal(res.status, 502);
  assert.deepEqual(res.body, {
    error: "Sign-in service is unreachable",
    code: "provider_unreachable",
  });

  await using off = await testApp();
  const disabled = await exchange(off, "anything");
  assert.equal(disabled.status, 503);
  assert.equal(disabled.body.code, "not_configured");
});

Deno.test("config: ATLAS_ISSUER needs ATLAS_AUDIENCE; the JWKS URL defaults under the issuer", () => {
  assert.throws(() => loadConfig({ ATLAS_ISSUER: ISSUER }), /ATLAS_AUDIENCE/);
  const config = loadConfig({ ATLAS_ISSUER: `${ISSUER}/`, ATLAS_AUDIENCE: AUDIENCE });
  assert.equal(config.atlas.jwksUrl, `${ISSUER}/.well-known/jwks.json`);
});
