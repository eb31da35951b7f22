import { createRoute, z } from "@hono/zod-openapi";
import type { PageBounds } from "../../http/paging.ts";
import { parsePaging } from "../../http/paging.ts";
import { authed, errors, json, jsonBody, jsonResponse } from "../../http/openapi.ts";
import { mailAnswer } from "../../http/mail_answer.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { found, resourceParam } from "../../http/scope.ts";
import { customTemplatesOf, mailOptions, receiveMail } from "../../intake/mail.ts";

import { planLimitResponse } from "../../schemas/billing/plan.ts";
import {
  DuplicateSchema,
  ImportBody,
  ImportedSchema,
  InboxQuery,
  InboxSchema,
  PreviewBody,
  PreviewSchema,
} from "../../schemas/intake/email.ts";
import { getEmailSource } from "../../store/intake/email_sources.ts";
import { getIntakeEntry, getRawMessage, listIntakeLog } from "../../store/intake/log.ts";
import { ErrorSchema } from "../../http/errors.ts";

const TAGS = ["Email intake"];
const SOURCE_NOT_FOUND = "Email source not found";
const MESSAGE_NOT_FOUND = "Message not found";
const INBOX_BOUNDS: PageBounds = { defaultLimit: 200, maxLimit: 500 };

/** 403, 422: `{error}` with the extra fields each carries. */
const refused = (description: string) => ({ content: json(ErrorSchema), description });

const importRoute = createRoute({
  ...authed,
  method: "post",
  path: "/import",
  tags: TAGS,
  summary: "Import one email",
  description: "Reads the message (schema.org markup, custom templates, built-in templates, " +
    "generic extraction) and creates or merges its order (`source: email`). With `sourceId`, " +
    "the real sender (after unwrapping a manual forward) must be in the source's allowed " +
    "senders: else 403 with `blockedSender` (absent when the message has no sender). A repeat " +
    "(same Message-ID, or same SHA-256 of the raw message without one) is 200 `duplicate`. " +
    "A message that is not an order (newsletter, code, ...) is 422 and logged. Every " +
    "outcome is in the inbox.",
  request: { body: jsonBody(ImportBody) },
  responses: {
    202: jsonResponse(ImportedSchema, "Accepted: the order was created or merged"),
    200: jsonResponse(DuplicateSchema, "A repeat of a message already received"),
    403: refused("The real sender is not in the source's allowed senders"),
    422: refused("Not readable as an email order"),
    429: planLimitResponse,
    ...errors(400, 401, 404, 413),
  },
});

const previewRoute = createRoute({
  ...authed,
  method: "post",
  path: "/preview",
  tags: TAGS,
  summary: "Read an email without storing anything",
  description: "What an import would read: the order fields, the template that matched " +
    "(a built-in or custom template id, `markup` or `generic`), the status signals and, for " +
    "each field, its evidence (the kind of source and the label or text it was anchored on).",
  request: { body: jsonBody(PreviewBody) },
  responses: {
    200: jsonResponse(PreviewSchema, "What the message reads as"),
    422: refused("Not readable as an email order"),
    ...errors(400, 401, 413),
  },
});

const listInboxRoute = createRoute({
  ...authed,
  method: "get",
  path: "/",
  tags: TAGS,
  summary: "Received emails, newest first",
  request: { query: InboxQuery },
  responses: { 200: jsonResponse(InboxSchema, "The newest entries"), ...errors(401) },
});

const getInboxRawRoute = createRoute({
  ...authed,
  method: "get",
  path: "/{id}/raw",
  tags: TAGS,
  summary: "The stored message of an inbox entry",
  request: { params: resourceParam("id", MESSAGE_NOT_FOUND, { example: "log_01jq4w5v2x8c9d" }) },
  responses: {
    200: {
      content: { "message/rfc822": { schema: z.string() } },
      description: "The message as received",
    },
    ...errors(401, 404),
  },
});

/** `import` is the operationId (a reserved word here). */
export const importEmail: AppRouteHandler<typeof importRoute> = async (c) => {
  const deps = c.var.deps;
  const userId = c.var.auth.userId;
  const body = c.req.valid("json");
  const source = body.sourceId === undefined
    ? null
    : found(await getEmailSource(deps.kv, userId, body.sourceId), SOURCE_NOT_FOUND);
  const result = await receiveMail(deps.kv, {
    userId,
    raw: new TextEncoder().encode(body.raw),
    source,
  }, mailOptions(deps));
  return mailAnswer(c, result, 429);
};

export const preview: AppRouteHandler<typeof previewRoute> = async (c) => {
  const { kv, now, emailReader } = c.var.deps;
  const read = await emailReader.read(
    new TextEncoder().encode(c.req.valid("json").raw),
    now(),
    await customTemplatesOf(kv, c.var.auth.userId),
  );
  if (read.reading.kind !== "order") {
    return c.json({
      error: "The message could not be read as an email order",
      ...("why" in read.reading ? { why: read.reading.why } : {}),
    }, 422);
  }
  return c.json(
    {
      fields: read.reading.fields,
      template: read.template,
      signals: read.signals,
      evidence: read.evidence ?? {},
    },
    200,
  );
};

export const listInbox: AppRouteHandler<typeof listInboxRoute> = async (c) => {
  const query = c.req.valid("query");
  const { limit } = parsePaging(query, INBOX_BOUNDS);
  const page = await listIntakeLog(c.var.deps.kv, c.var.auth.userId, {
    channel: "email",
    sourceId: query.sourceId,
    limit,
  });
  return c.json(page, 200);
};

export const getInboxRaw: AppRouteHandler<typeof getInboxRawRoute> = async (c) => {
  const { kv } = c.var.deps;
  const userId = c.var.auth.userId;
  const { id } = c.req.valid("param");
  const entry = found(await getIntakeEntry(kv, userId, id), MESSAGE_NOT_FOUND);
  const bytes = found(await getRawMessage(kv, userId, entry.id), MESSAGE_NOT_FOUND);
  return c.body(new Uint8Array(bytes), 200, { "Content-Type": "message/rfc822" });
};

/** `/email`: read a message sent by hand. */
export const emailIntakeRoutes = createRouter()
  .openapi(importRoute, importEmail)
  .openapi(previewRoute, preview);

/** `/inbox`: the messages that arrived, as received. */
export const inboxRoutes = createRouter()
  .openapi(listInboxRoute, listInbox)
  .openapi(getInboxRawRoute, getInboxRaw);
