import { deepStrictEqual as eq } from "node:assert/strict";
import { call, signUp, testApp } from "../helpers.ts";

// deno-lint-ignore no-explicit-any -- JSON bodies checked field by field
type Body = Record<string, any>;

const UPS = "1Z999AA10123456784";
const USPS = "9400111201080805483016";

Deno.test("a detected carrier is set when the order is saved, unless the user chose another", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const detected = await call<Body>(ctx, "POST", "/api/orders", {
    token,
    body: { itemSummary: "Lamp", trackingNumber: UPS },
  });
  eq([detected.status, detected.body.order.carrier], [201, "ups"]);
  const chosen = await call<Body>(ctx, "POST", "/api/orders", {
    token,
    body: { itemSummary: "Chair", trackingNumber: UPS, carrier: "fedex" },
  });
  eq(chosen.body.order.carrier, "fedex");

  const path = `/api/orders/${detected.body.order.id}`;
  const patched = await call<Body>(ctx, "PATCH", path, { token, body: { trackingNumber: USPS } });
  eq([patched.body.order.carrier, patched.body.order.userEdited], ["usps", ["trackingNumber"]]);
  await call(ctx, "PATCH", path, { token, body: { carrier: "dhl" } });
  const kept = await call<Body>(ctx, "PATCH", path, { token, body: { trackingNumber: UPS } });
  eq(kept.body.order.carrier, "dhl", "the user's choice stays");
  const unknown = await call<Body>(ctx, "POST", "/api/orders", {
    token,
    body: { itemSummary: "Desk", trackingNumber: "NOT-A-NUMBER" },
  });
  eq(unknown.body.order.carrier, undefined);
});
