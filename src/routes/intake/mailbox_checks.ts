/**
 * The mailbox checks of the email screen: `POST /api/email-sources/test-connection` ("Test
 * connection": signs in and selects the folder with the settings sent, the stored password of
 * `sourceId` when none is sent, within 10 s, the error in words) and
 * `POST /api/email-sources/{id}/check` ("Check now": one poll at once under the poll's lease).
 */
import { createRoute, z } from "@hono/zod-openapi";
import { mailboxBinding, publicSource } from "../../domain/intake/email_source.ts";
import { testTarget } from "../../domain/intake/email_source_changes.ts";
import { ApiError, badRequest } from "../../http/errors.ts";
import { authed, errors, jsonBody, jsonResponse } from "../../http/openapi.ts";
import { rateLimit } from "../../http/rate_limit.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { found, resourceParam } from "../../http/scope.ts";
import { checkMailboxNow } from "../../intake/imap/poll.ts";
import { testMailboxConnection } from "../../intake/imap/test_connection.ts";
import { EmailSourceSchema, PatchEmailSourceBody } from "../../schemas/intake/email.ts";
import { getEmailSource } from "../../store/intake/email_sources.ts";

/** The 404 of every email-source route (routes do not import each other). */
const SOURCE_NOT_FOUND = "Email source not found";
const IdParam = resourceParam("id", SOURCE_NOT_FOUND, { example: "email_01jq4w5v2x8c9d0e1f" });

const TestBody = PatchEmailSourceBody.pick({
  host: true,
  port: true,
  tls: true,
  username: true,
  password: true,
  mailbox: true,
}).extend({
  sourceId: z.string().max(64).optional().openapi({
    description: "An imap source of the caller: its stored password is used when no " +
      "`password` is sent, and its settings fill the fields not sent; with another host, " +
      "port, TLS or username the password must be sent (400 naming `password`)",
  }),
}).openapi("MailboxTest");

const ResultSchema = z.object({
  ok: z.boolean().openapi({ description: "Signed in and the folder opened" }),
  mailbox: z.string().optional().openapi({ description: "The folder opened, when ok" }),
  field: z.enum(["host", "tls"]).optional().openapi({
    description: "The setting at fault, when the host rule refused it",
  }),
  error: z.string().optional().openapi({
    description: "What went wrong, in words (sign-in refused, folder not found, no answer in " +
      "time, certificate not trusted, ...); never the password",
    example: "Sign-in failed: the mailbox refused the username or password",
  }),
}).openapi("MailboxTestResult");

const testConnectionRoute = createRoute({
  ...authed,
  middleware: [
    ...authed.middleware,
    rateLimit({
      name: "mailbox-test",
      limit: 10,
      key: (c) => c.var.auth.userId,
      message: "Too many connection tests from this account; try again in a minute",
    }),
  ],
  method: "post",
  path: "/test-connection",
  tags: ["Email sources"],
  summary: "Test an IMAP mailbox's settings",
  description: "Connects to the mailbox under the same host rule as polling (no private " +
    "address; plain IMAP only for hosts in ALLOWED_PRIVATE_ADDRESSES), signs in and opens the " +
    "folder read-only, then logs out. Answers within 10 s: 200 `{ok: true, mailbox}` or 200 " +
    "`{ok: false, error}` (the test ran; the mailbox said no). Nothing is stored.",
  request: { body: jsonBody(TestBody) },
  responses: {
    200: jsonResponse(ResultSchema, "What the mailbox answered"),
    ...errors(400, 401, 404, 429),
  },
});

const CheckResultSchema = z.object({
  source: EmailSourceSchema,
  read: z.number().int().openapi({ description: "Messages stored by this check" }),
  more: z.boolean().openapi({ description: "More is waiting; the next poll reads on" }),
  error: z.string().optional().openapi({
    description: "Why the check failed, in words (also the source's `lastError`)",
  }),
}).openapi("MailboxCheck");

const checkEmailSourceRoute = createRoute({
  ...authed,
  middleware: [
    ...authed.middleware,
    rateLimit({
      name: "mailbox-check",
      limit: 10,
      key: (c) => c.var.auth.userId,
      message: "Too many mailbox checks from this account; try again in a minute",
    }),
  ],
  method: "post",
  path: "/{id}/check",
  tags: ["Email sources"],
  summary: "Check an IMAP mailbox now",
  description: "Reads what is new in the mailbox at once, as the poll every " +
    "`IMAP_POLL_MINUTES` does (at most 200 messages within 30 s; the rest is the next poll's), " +
    "and answers the source after it (`lastPolledAt`, `lastError`). 409 while another poll of " +
    "this mailbox runs; 400 for a forwarding source.",
  request: { params: IdParam },
  responses: {
    200: jsonResponse(CheckResultSchema, "The check's outcome and the source after it"),
    ...errors(400, 401, 404, 409, 429),
  },
});

export const checkEmailSource: AppRouteHandler<typeof checkEmailSourceRoute> = async (c) => {
  const deps = c.var.deps;
  const userId = c.var.auth.userId;
  const { id } = c.req.valid("param");
  const source = found(await getEmailSource(deps.kv, userId, id), SOURCE_NOT_FOUND);
  if (source.kind !== "imap") throw badRequest("Only a mailbox (imap) source can be checked");
  const result = await checkMailboxNow(deps, userId, source, c.req.raw.signal);
  if (result === "busy") throw new ApiError(409, "This mailbox is being read right now");
  const after = found(await getEmailSource(deps.kv, userId, id), SOURCE_NOT_FOUND);
  return c.json({
    source: publicSource(after, deps.config.mailDomain),
    read: result.read,
    more: result.more,
    ...(result.error ? { error: result.error } : {}),
  }, 200);
};

export const testConnection: AppRouteHandler<typeof testConnectionRoute> = async (c) => {
  const deps = c.var.deps;
  const body = c.req.valid("json");
  const source = body.sourceId
    ? found(await getEmailSource(deps.kv, c.var.auth.userId, body.sourceId), SOURCE_NOT_FOUND)
    : undefined;
  const tested = testTarget(body, source);
  if (!tested.ok) throw badRequest(tested.error);
  let password = body.password;
  if (tested.useStored && source?.sealedPassword && deps.secrets) {
    const binding = mailboxBinding(source);
    password = await deps.secrets.open(source.sealedPassword, source.id, binding) ?? undefined;
  }
  if (password === undefined) throw badRequest("password is required");
  const result = await testMailboxConnection(deps, { ...tested.target, password });
  return c.json(result, 200);
};

export const mailboxCheckRoutes = createRouter()
  .openapi(checkEmailSourceRoute, checkEmailSource)
  .openapi(testConnectionRoute, testConnection);
