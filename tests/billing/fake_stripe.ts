/**
 * A local fake of the billing provider's API on loopback, speaking its protocol: form-encoded
 * POSTs with the secret key as a bearer token, JSON objects back. It implements the endpoints
 * the service calls (customers, checkout sessions, billing portal sessions) and records every
 * request. `signed` signs a webhook body the documented way, independently of the client.
 */

export interface FakeRequest {
  path: string;
  params: Record<string, string>;
}

export interface FakeStripe extends AsyncDisposable {
  base: string;
  requests: FakeRequest[];
  close(): Promise<void>;
}

export const SECRET_KEY = "sk_test_fake";

export function fakeStripe(): FakeStripe {
  const requests: FakeRequest[] = [];
  let n = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const params = Object.fromEntries(new URLSearchParams(await req.text()));
    if (req.headers.get("authorization") !== `Bearer ${SECRET_KEY}`) {
      return Response.json({ error: { type: "invalid_request_error", message: "bad key" } }, {
        status: 401,
      });
    }
    requests.push({ path, params });
    const id = ++n;
    if (req.method === "POST" && path === "/v1/customers") {
      return Response.json({ id: `cus_${id}`, object: "customer", email: params.email });
    }
    if (req.method === "POST" && path === "/v1/checkout/sessions") {
      return Response.json({
        id: `cs_${id}`,
        object: "checkout.session",
        mode: params.mode,
        customer: params.customer,
        client_reference_id: params.client_reference_id,
        url: `https://checkout.example/c/cs_${id}`,
      });
    }
    if (req.method === "POST" && path === "/v1/billing_portal/sessions") {
      return Response.json({
        id: `bps_${id}`,
        object: "billing_portal.session",
        customer: params.customer,
        return_url: params.return_url,
        url: `https://billing.example/p/bps_${id}`,
      });
    }
    return Response.json({ error: { type: "invalid_request_error", message: "no such path" } }, {
      status: 404,
    });
  });
  const close = () => server.shutdown();
  return {
    base: `http://127.0.0.1:${server.addr.port}`,
    requests,
    close,
    [Symbol.asyncDispose]: close,
  };
}

const hex = (bytes: ArrayBuffer) =>
  Array.from(new Uint8Array(bytes)).map((b) => b.toString(16).padStart(2, "0")).join("");

/** `Stripe-Signature` for `body`: `t=<seconds>,v1=<HMAC-SHA256(secret, "<t>.<body>")>`. */
export async function signed(body: string, secret: string, at = Date.now()): Promise<string> {
  const t = Math.floor(at / 1000);
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${t}.${body}`));
  return `t=${t},v1=${hex(mac)}`;
}

/** A provider event as its webhook body carries it. */
export function event(id: string, type: string, created: number, object: Record<string, unknown>) {
  return JSON.stringify({
    id,
    object: "event",
    api_version: "2026-10-28.endive",
    created,
    type,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  });
}

/** A subscription object with an item of `price` (of each price, for several). */
export function subscription(
  customer: string,
  status: string,
  periodEnd: number,
  price: string | string[] = "price_pro",
  metadata: Record<string, string> = {},
) {
  return {
    id: "sub_stripe_1",
    object: "subscription",
    customer,
    status,
    metadata,
    items: {
      object: "list",
      data: [price].flat().map((id, i) => ({
        id: `si_${i + 1}`,
        object: "subscription_item",
        current_period_end: periodEnd,
        price: { id, object: "price" },
      })),
    },
  };
}
