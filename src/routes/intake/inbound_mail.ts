import { createRoute } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { forwardingSlugOf } from "../../domain/intake/email_source.ts";
import type { AppEnv } from "../../http/env.ts";
import { ApiError, ErrorSchema, unauthorized } from "../../http/errors.ts";
import { mailAnswer } from "../../http/mail_answer.ts";
import { errors, json, jsonBody, jsonResponse } from "../../http/openapi.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { mailOptions, receiveMail } from "../../intake/mail.ts";
import { timingSafeEqual } from "../../lib/crypto.ts";
import { planLimitResponse } from "../../schemas/billing/plan.ts";
import { DuplicateSchema, ImportedSchema, InboundMailBody } from "../../schemas/intake/email.ts";
import { findForwardingSource } from "../../store/intake/email_sources.ts";

export const INBOUND_KEY_HEADER = "x-service-inbound-key";

/**
 * The operator key, before anything else is read: 503 where none is configured, 401 for a
 * missing or wrong one (compared in constant time), from the header or `?key=`.
 */
const requireInboundKey: MiddlewareHandler<AppEnv> = async (c, next) => {
  const expected = c.var.deps.config.inboundMailKey;
  if (!expected) {
    throw new ApiError(503, "Inbound mail is not configured on this deployment");
  }
  const given = c.req.header(INBOUND_KEY_HEADER) ?? c.req.query("key") ?? "";
  if (!timingSafeEqual(given, expected)) throw unauthorized();
  await next();
};

/** Route settings of the operator's endpoints: the inbound key, in a header or the query. */
const inboundKeyed = {
  security: [{ InboundKey: [] }, { InboundKeyQuery: [] }] as Record<string, string[]>[],
  middleware: [requireInboundKey],
};

const refused = (description: string) => ({ content: json(ErrorSchema), description });

const receiveInboundMailRoute = createRoute({
  ...inboundKeyed,
  method: "post",
  path: "/mail",
  tags: ["Email intake"],
  summary: "Hand over mail received by the operator's mail worker",
  description: "For the deployment's own mail worker (or any MTA hook) that receives mail for " +
    "forwarding addresses: the message is read and stored as `POST /api/email/import` would, " +
    "through the source the address belongs to (its allow-list applies). Needs the operator " +
    "key (`INBOUND_MAIL_KEY`) in `x-service-inbound-key` or `?key=`; 503 when none is " +
    "configured. 404 for an address that is not an active forwarding address; 402 (not 429) " +
    "when the plan's monthly cap is used up.",
  request: { body: jsonBody(InboundMailBody) },
  responses: {
    202: jsonResponse(ImportedSchema, "Accepted: the order was created or merged"),
    200: jsonResponse(DuplicateSchema, "A repeat of a message already received"),
    402: planLimitResponse,
    403: refused("The real sender is not in the source's allowed senders"),
    422: refused("Not readable as an email order"),
    ...errors(400, 401, 404, 413, 503),
  },
});

export const receiveInboundMail: AppRouteHandler<typeof receiveInboundMailRoute> = async (c) => {
  const deps = c.var.deps;
  const { to, raw } = c.req.valid("json");
  const slug = forwardingSlugOf(to, deps.config.mailDomain);
  const target = slug ? await findForwardingSource(deps.kv, slug) : null;
  if (!target) throw new ApiError(404, "Forwarding address not found");
  const result = await receiveMail(deps.kv, {
    userId: target.userId,
    raw: new TextEncoder().encode(raw),
    source: target.source,
  }, mailOptions(deps));
  return mailAnswer(c, result, 402);
};

export const inboundMailRoutes = createRouter()
  .openapi(receiveInboundMailRoute, receiveInboundMail);
