import { createRoute, z } from "@hono/zod-openapi";
import {
  defaultSourceName,
  IMAP_DEFAULTS,
  mailboxBinding,
  publicSource,
  type StoredEmailSource,
} from "../../domain/intake/email_source.ts";
import {
  applySourceChanges,
  missingOnCreate,
  type SourceChanges,
} from "../../domain/intake/email_source_changes.ts";
import type { AppDeps } from "../../deps.ts";
import { ApiError, badRequest } from "../../http/errors.ts";
import { authed, errors, jsonBody, jsonResponse, OkSchema } from "../../http/openapi.ts";
import { pageOf, pageSchema, PagingQuery, parsePaging } from "../../http/paging.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { found, resourceParam } from "../../http/scope.ts";
import { checkMailboxHost } from "../../intake/imap/host.ts";
import { startRebuild } from "../../intake/rebuild.ts";
import { newId, randomHex } from "../../lib/ids.ts";
import {
  CreateEmailSourceBody,
  EmailSourceEnvelope,
  EmailSourceSchema,
  PatchEmailSourceBody,
  RebuildBody,
  RebuildProgressSchema,
} from "../../schemas/intake/email.ts";
import * as sourceStore from "../../store/intake/email_sources.ts";

const TAGS = ["Email sources"];
export const SOURCE_NOT_FOUND = "Email source not found";
const IdParam = resourceParam("id", SOURCE_NOT_FOUND, { example: "email_01jq4w5v2x8c9d0e1f" });

const listEmailSourcesRoute = createRoute({
  ...authed,
  method: "get",
  path: "/",
  tags: TAGS,
  summary: "List email sources, newest first",
  request: { query: PagingQuery },
  responses: {
    200: jsonResponse(pageSchema(EmailSourceSchema, "EmailSourcePage"), "A page of sources"),
    ...errors(401),
  },
});

const getEmailSourceRoute = createRoute({
  ...authed,
  method: "get",
  path: "/{id}",
  tags: TAGS,
  summary: "One email source",
  request: { params: IdParam },
  responses: { 200: jsonResponse(EmailSourceEnvelope, "The source"), ...errors(401, 404) },
});

const createEmailSourceRoute = createRoute({
  ...authed,
  method: "post",
  path: "/",
  tags: TAGS,
  summary: "Create an email source",
  description: "`forwarding`: issues a forwarding address `<random slug>@<MAIL_DOMAIN>`. " +
    "`imap`: a mailbox to poll (`host`, `username`, `password` required; `port` 993, `tls` " +
    "true and `mailbox` INBOX by default). The host follows the private-address rule " +
    "(`400 host: ...`); plain IMAP (`tls: false`) only for hosts in ALLOWED_PRIVATE_ADDRESSES. " +
    "The password is stored encrypted (503 where the deployment cannot encrypt) and never " +
    "returned. `allowedSenders` restricts who may create orders through the source.",
  request: { body: jsonBody(CreateEmailSourceBody) },
  responses: {
    201: jsonResponse(EmailSourceEnvelope, "Created"),
    ...errors(400, 401, 413, 503),
  },
});

const updateEmailSourceRoute = createRoute({
  ...authed,
  method: "patch",
  path: "/{id}",
  tags: TAGS,
  summary: "Change an email source",
  description: "Any create field but `kind`, validated as on create. A change of `host`, " +
    "`port`, `tls` or `username` needs `password` in the same request (`400 password: ...`): " +
    "the stored password is bound to those fields and is never sent anywhere else. An " +
    "inactive source is not polled and its forwarding address answers 404.",
  request: { params: IdParam, body: jsonBody(PatchEmailSourceBody) },
  responses: {
    200: jsonResponse(EmailSourceEnvelope, "The changed source"),
    ...errors(400, 401, 404, 413, 503),
  },
});

const deleteEmailSourceRoute = createRoute({
  ...authed,
  method: "delete",
  path: "/{id}",
  tags: TAGS,
  summary: "Delete an email source",
  description: "Its forwarding address stops at once.",
  request: { params: IdParam },
  responses: { 200: jsonResponse(OkSchema, "Deleted"), ...errors(401, 404) },
});

const rebuildEmailSourceRoute = createRoute({
  ...authed,
  method: "post",
  path: "/{id}/rebuild",
  tags: TAGS,
  summary: "Read a source's recent mail again",
  description: "Reads the last `sinceDays` days again in the background: an imap source's " +
    "mailbox (the newest 10,000 messages), a forwarding source's stored messages. Messages " +
    "not yet stored are stored, a stored message that made no order is stored again when it " +
    "now reads as one, and the orders of the others are re-read with today's templates " +
    "(fields the user edited are kept). Never fires events. 409 while a rebuild of the " +
    "source runs.",
  request: { params: IdParam, body: jsonBody(RebuildBody) },
  responses: {
    202: jsonResponse(OkSchema, "Started"),
    ...errors(400, 401, 404, 409, 413),
  },
});

const getEmailSourceRebuildRoute = createRoute({
  ...authed,
  method: "get",
  path: "/{id}/rebuild",
  tags: TAGS,
  summary: "How the source's latest rebuild went, or is going",
  description: "Counts are recorded every 20 messages and at the end (`finishedAt`). " +
    "`rebuild` is null when the source was never rebuilt.",
  request: { params: IdParam },
  responses: {
    200: jsonResponse(
      z.object({ rebuild: RebuildProgressSchema.nullable() }).openapi("EmailSourceRebuildState"),
      "The latest rebuild",
    ),
    ...errors(401, 404),
  },
});

/** The mailbox host under the private-address rule; plain IMAP only for allowed hosts. */
async function checkedHost(deps: AppDeps, host: string, tls: boolean): Promise<string> {
  const check = await checkMailboxHost(deps.outbound, host, tls);
  if (!check.ok) throw badRequest(`${check.field}: ${check.error}`);
  return host.toLowerCase();
}

/**
 * Sealing the mailbox password needs the deployment's secret key; it is sealed for the
 * source's id and bound to where it may be sent (`mailboxBinding`).
 */
async function sealedPassword(deps: AppDeps, source: StoredEmailSource, password: string) {
  if (!deps.secrets) {
    throw new ApiError(
      503,
      "Mailbox password encryption is not configured on this deployment (set SECRETS_KEY)",
    );
  }
  return await deps.secrets.seal(password, source.id, mailboxBinding(source));
}

/**
 * `body` applied to `base` (domain/intake/email_source_changes.ts), then the I/O its rules leave: the
 * mailbox host checked when it or TLS changed, a new password sealed.
 */
async function applied(deps: AppDeps, base: StoredEmailSource, body: SourceChanges, now: number) {
  const changed = applySourceChanges(base, body, now);
  if (!changed.ok) throw badRequest(changed.error);
  const next = changed.source;
  if (next.kind !== "imap") return next;
  if (body.host !== undefined || body.tls !== undefined) {
    next.host = await checkedHost(deps, next.host!, next.tls ?? true);
  }
  if (body.password !== undefined) {
    next.sealedPassword = await sealedPassword(deps, next, body.password);
  }
  return next;
}

export const listEmailSources: AppRouteHandler<typeof listEmailSourcesRoute> = async (c) => {
  const { kv, config } = c.var.deps;
  const all = await sourceStore.listEmailSources(kv, c.var.auth.userId);
  const page = pageOf(all, parsePaging(c.req.valid("query")));
  return c.json(
    { ...page, items: page.items.map((s) => publicSource(s, config.mailDomain)) },
    200,
  );
};

export const getEmailSource: AppRouteHandler<typeof getEmailSourceRoute> = async (c) => {
  const { kv, config } = c.var.deps;
  const source = found(
    await sourceStore.getEmailSource(kv, c.var.auth.userId, c.req.valid("param").id),
    SOURCE_NOT_FOUND,
  );
  return c.json({ source: publicSource(source, config.mailDomain) }, 200);
};

export const createEmailSource: AppRouteHandler<typeof createEmailSourceRoute> = async (c) => {
  const deps = c.var.deps;
  const body = c.req.valid("json");
  const now = deps.now();
  const missing = missingOnCreate(body.kind, body);
  if (missing) throw badRequest(missing);
  const id = newId("email", now);
  const base: StoredEmailSource = {
    id,
    kind: body.kind,
    name: defaultSourceName(body.kind, body.host),
    allowedSenders: [],
    active: true,
    createdAt: new Date(now).toISOString(),
    ...(body.kind === "forwarding"
      ? { slug: randomHex(10) }
      : { ...IMAP_DEFAULTS, host: body.host, username: body.username }),
  };
  const { updatedAt: _, ...source } = await applied(deps, base, body, now);
  if (!(await sourceStore.createEmailSource(deps.kv, c.var.auth.userId, source))) {
    throw new ApiError(409, "Could not issue a forwarding address, try again");
  }
  return c.json({ source: publicSource(source, deps.config.mailDomain) }, 201);
};

export const updateEmailSource: AppRouteHandler<typeof updateEmailSourceRoute> = async (c) => {
  const deps = c.var.deps;
  const userId = c.var.auth.userId;
  const { id } = c.req.valid("param");
  const body = c.req.valid("json");
  const current = found(await sourceStore.getEmailSource(deps.kv, userId, id), SOURCE_NOT_FOUND);
  const next = await applied(deps, current, body, deps.now());
  // Fields the poller writes meanwhile (lastPolledAt, lastError) are kept.
  const stored = found(
    await sourceStore.changeEmailSource(deps.kv, userId, id, (s) => ({
      ...next,
      lastPolledAt: s.lastPolledAt,
      lastError: s.lastError,
    })),
    SOURCE_NOT_FOUND,
  );
  return c.json({ source: publicSource(stored, deps.config.mailDomain) }, 200);
};

export const rebuildEmailSource: AppRouteHandler<typeof rebuildEmailSourceRoute> = async (c) => {
  const deps = c.var.deps;
  const userId = c.var.auth.userId;
  const source = found(
    await sourceStore.getEmailSource(deps.kv, userId, c.req.valid("param").id),
    SOURCE_NOT_FOUND,
  );
  if (!(await startRebuild(deps, userId, source, c.req.valid("json").sinceDays))) {
    throw new ApiError(409, "A rebuild of this source is already running");
  }
  return c.json({ ok: true as const }, 202);
};

export const getEmailSourceRebuild: AppRouteHandler<typeof getEmailSourceRebuildRoute> = async (
  c,
) => {
  const { kv } = c.var.deps;
  const userId = c.var.auth.userId;
  const { id } = c.req.valid("param");
  found(await sourceStore.getEmailSource(kv, userId, id), SOURCE_NOT_FOUND);
  return c.json({ rebuild: await sourceStore.getRebuildProgress(kv, userId, id) }, 200);
};

export const deleteEmailSource: AppRouteHandler<typeof deleteEmailSourceRoute> = async (c) => {
  const { kv } = c.var.deps;
  found(
    await sourceStore.deleteEmailSource(kv, c.var.auth.userId, c.req.valid("param").id),
    SOURCE_NOT_FOUND,
  );
  return c.json({ ok: true as const }, 200);
};

export const emailSourceRoutes = createRouter()
  .openapi(listEmailSourcesRoute, listEmailSources)
  .openapi(getEmailSourceRoute, getEmailSource)
  .openapi(createEmailSourceRoute, createEmailSource)
  .openapi(updateEmailSourceRoute, updateEmailSource)
  .openapi(rebuildEmailSourceRoute, rebuildEmailSource)
  .openapi(getEmailSourceRebuildRoute, getEmailSourceRebuild)
  .openapi(deleteEmailSourceRoute, deleteEmailSource);
