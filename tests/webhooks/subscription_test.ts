import assert from "node:assert/strict";
import {
  afterAttempt,
  afterRotation,
  afterSkip,
  applyChanges,
  AUTO_PAUSE_FAILURES,
  outcomeOfStatus,
  publicSubscription,
  receives,
  type StoredSubscription,
  uniqueEventTypes,
} from "../../src/domain/webhooks/subscription.ts";

const SUB: StoredSubscription = {
  id: "whsub_1",
  userId: "usr_1",
  url: "https://hooks.example.com/",
  prefix: "whsec_abcdefgh",
  eventTypes: ["order.created"],
  active: true,
  failureCount: 0,
  createdAt: "2026-01-01T00:00:00.000Z",
  needsSecretRotation: false,
  sealedSecret: "v1.iv.data",
};
const AT = "2026-01-02T00:00:00.000Z";

Deno.test("any 2xx is a success; every other status is a failure named HTTP <code>", () => {
  for (const status of [200, 201, 204, 299]) {
    assert.deepEqual(outcomeOfStatus(status), { ok: true });
  }
  for (const status of [100, 199, 300, 301, 302, 304, 400, 404, 500, 503]) {
    assert.deepEqual(outcomeOfStatus(status), { ok: false, error: `HTTP ${status}` });
  }
});

Deno.test("failures count up and the 10th in a row pauses; a success resets the count only", () => {
  let sub = SUB;
  for (let i = 1; i <= AUTO_PAUSE_FAILURES; i++) {
    sub = afterAttempt(sub, { ok: false, error: "timeout" }, AT);
    assert.deepEqual([sub.failureCount, sub.active, sub.lastError], [i, i < 10, "timeout"]);
  }
  assert.equal(AUTO_PAUSE_FAILURES, 10);
  const ok = afterAttempt({ ...SUB, failureCount: 9, lastError: "HTTP 500" }, { ok: true }, AT);
  assert.deepEqual([ok.failureCount, ok.lastError, ok.lastFiredAt, ok.active], [
    0,
    "HTTP 500",
    AT,
    true,
  ]);
  const paused = afterAttempt({ ...SUB, active: false, failureCount: 10 }, { ok: true }, AT);
  assert.equal(paused.active, false, "a success does not resume a paused subscription");
});

Deno.test("a skip sets lastError and nothing else", () => {
  assert.deepEqual(afterSkip(SUB, "rotate"), { ...SUB, lastError: "rotate" });
});

Deno.test("PATCH applies only the fields sent; active: true resets the count", () => {
  const failing = { ...SUB, failureCount: 6, lastError: "timeout" };
  assert.deepEqual(applyChanges(failing, {}), failing);
  assert.deepEqual(applyChanges(failing, { active: false }), { ...failing, active: false });
  assert.deepEqual(applyChanges(failing, { active: true }), { ...failing, failureCount: 0 });
  assert.deepEqual(
    applyChanges(failing, { eventTypes: ["order.shipped", "order.created", "order.shipped"] })
      .eventTypes,
    ["order.shipped", "order.created"],
  );
  assert.equal(
    applyChanges(failing, { url: "https://b.example.com/" }).url,
    "https://b.example.com/",
  );
  assert.deepEqual(uniqueEventTypes(["share.created", "share.created"]), ["share.created"]);
});

Deno.test("rotation: new secret, active, count 0, no error, no rotation needed", () => {
  const before = {
    ...SUB,
    active: false,
    failureCount: 10,
    lastError: "x",
    needsSecretRotation: true,
  };
  const after = afterRotation(before, "v1.new.secret", "whsec_newprefx");
  assert.deepEqual(after, {
    ...SUB,
    sealedSecret: "v1.new.secret",
    prefix: "whsec_newprefx",
  });
});

Deno.test("receives: active and subscribed to the type; the public view drops the sealed secret", () => {
  assert.equal(receives(SUB, "order.created"), true);
  assert.equal(receives(SUB, "order.shipped"), false);
  assert.equal(receives({ ...SUB, active: false }, "order.created"), false);
  const { sealedSecret: _, ...view } = SUB;
  assert.deepEqual(publicSubscription(SUB), view);
});
