import { deepStrictEqual as eq, equal } from "node:assert/strict";
import { Hono } from "hono";
import { AccountGoneError, ConflictError, SignInError, UpstreamError } from "../../src/errors.ts";
import { ApiError, errorResponse } from "../../src/http/errors.ts";

/** What the one mapping answers for an error thrown by a handler. */
async function answer(err: unknown) {
  const app = new Hono();
  app.get("/", () => {
    throw err;
  });
  app.onError((e, c) => errorResponse(c, e));
  const res = await app.request("/");
  return { status: res.status, body: await res.json(), retry: res.headers.get("Retry-After") };
}

Deno.test("errors from below HTTP map to their statuses in one place", async () => {
  eq(await answer(new ConflictError("Too many concurrent changes, try again")), {
    status: 409,
    body: { error: "Too many concurrent changes, try again" },
    retry: null,
  });
  eq(await answer(new AccountGoneError()), {
    status: 401,
    body: { error: "Unauthorized" },
    retry: null,
  });
  eq(
    await answer(
      new UpstreamError("Chat platform", "Chat platform is unreachable", {
        code: "provider_unreachable",
      }),
    ),
    {
      status: 502,
      body: { error: "Chat platform is unreachable", code: "provider_unreachable" },
      retry: null,
    },
  );
  eq(await answer(new SignInError("expired_token", "Sign-in token has expired")), {
    status: 401,
    body: { error: "Sign-in token has expired", code: "expired_token" },
    retry: null,
  });
  eq(await answer(new SignInError("provider_error", "Chat platform answered HTTP 500")), {
    status: 502,
    body: { error: "Chat platform answered HTTP 500", code: "provider_error" },
    retry: null,
  });
});

Deno.test("ApiError keeps its extra fields and headers; anything else is a 500 that hides its message", async () => {
  eq(await answer(new ApiError(429, "Slow down", { reason: "x" }, { "Retry-After": "60" })), {
    status: 429,
    body: { error: "Slow down", reason: "x" },
    retry: "60",
  });
  const hidden = await answer(new Error("secret detail"));
  equal(hidden.status, 500);
  eq(hidden.body, { error: "Internal server error" });
});
