/**
 * `POST /api/inbox/{id}/order`: "Make an order from this" for a received email that made no
 * order (ignored or not sure enough): its stored copy is read again as an order on the
 * person's word, and stored as a new entry (the old one stays, as history); events fire, as a
 * person did it. Once: a message that made an order is 409 naming it.
 */
import { createRoute } from "@hono/zod-openapi";
import { ApiError } from "../../http/errors.ts";
import { mailAnswer } from "../../http/mail_answer.ts";
import { authed, errors, jsonResponse } from "../../http/openapi.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { found, resourceParam } from "../../http/scope.ts";
import { asOrderReader } from "../../intake/email/readers.ts";
import { customTemplatesOf, readMail, storeMail } from "../../intake/mail.ts";
import { receiveOptions } from "../../intake/receive.ts";
import { DuplicateSchema, ImportedSchema } from "../../schemas/intake/email.ts";
import { getEmailSource } from "../../store/intake/email_sources.ts";
import { firstCopyOf, getIntakeEntry, getRawMessage } from "../../store/intake/log.ts";

const MESSAGE_NOT_FOUND = "Message not found";

const orderInboxRoute = createRoute({
  ...authed,
  method: "post",
  path: "/{id}/order",
  tags: ["Email intake"],
  summary: "Make an order from a received email that made none",
  description: "For an inbox entry whose outcome is `ignored` or `unreadable` and whose message " +
    "is stored: reads it again, taking what it reads as an order even where the reader would " +
    "ignore it, and stores it as a new entry beside the old one (202, as an import). 409 when the entry " +
    "made an order already or its message is not stored; 422 when nothing in it reads as an order.",
  request: { params: resourceParam("id", MESSAGE_NOT_FOUND, { example: "log_01jq4w5v2x8c9d" }) },
  responses: {
    202: jsonResponse(ImportedSchema, "The order made or added to"),
    200: jsonResponse(DuplicateSchema, "Stored meanwhile by another request"),
    ...errors(401, 404, 409, 422, 429),
  },
});

export const orderInbox: AppRouteHandler<typeof orderInboxRoute> = async (c) => {
  const deps = c.var.deps;
  const userId = c.var.auth.userId;
  const { id } = c.req.valid("param");
  const entry = found(await getIntakeEntry(deps.kv, userId, id), MESSAGE_NOT_FOUND);
  if (entry.channel !== "email") throw new ApiError(404, MESSAGE_NOT_FOUND);
  if (entry.outcome !== "ignored" && entry.outcome !== "unreadable") {
    throw new ApiError(409, "This message is not one that made no order");
  }
  const raw = await getRawMessage(deps.kv, userId, id);
  if (!raw) throw new ApiError(409, "This message was not kept, so it cannot be read again");
  const source = entry.sourceId ? await getEmailSource(deps.kv, userId, entry.sourceId) : null;
  const mail = { userId, raw, source };
  const now = deps.now();
  const templates = await customTemplatesOf(deps.kv, userId);
  const read = await readMail(deps.kv, mail, now, templates, asOrderReader);
  if (read.reading.kind !== "order") {
    throw new ApiError(422, "Nothing in this message reads as an order");
  }
  const first = await firstCopyOf(deps.kv, userId, "email", read.read.identity);
  // Made into an order already (asked twice): once is enough. Two requests at once are settled
  // by the message's dedupe key in the commit: the second is a duplicate.
  const firstEntry = first ? await getIntakeEntry(deps.kv, userId, first) : null;
  if (firstEntry?.orderId) {
    throw new ApiError(409, "This message made an order already", {
      orderId: firstEntry.orderId,
    });
  }
  // The read's clock, so the message and its order agree on when it arrived.
  const result = await storeMail(deps.kv, mail, read, {
    ...receiveOptions(deps),
    now,
    supersedes: first ?? id,
  });
  return mailAnswer(c, result, 429);
};

export const inboxOrderRoutes = createRouter().openapi(orderInboxRoute, orderInbox);
