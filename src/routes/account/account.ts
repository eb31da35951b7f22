import { createRoute, z } from "@hono/zod-openapi";
import { checkUsername } from "../../domain/account/profile.ts";
import { normaliseEmail, toPublicUser, type UserRecord } from "../../domain/account/user.ts";
import { currentUser, workspaceOf } from "../../http/auth.ts";
import { builtInTemplates } from "../../intake/email/templates.ts";
import { ApiError, badRequest, unauthorized } from "../../http/errors.ts";
import {
  authed,
  errors,
  jsonBody,
  jsonResponse,
  OkSchema,
  sessionOnly,
} from "../../http/openapi.ts";
import { type AppRouteHandler, createRouter, type Router } from "../../http/router.ts";
import {
  DisplayNameField,
  ExportSchema,
  SnapshotSchema,
  TimezoneField,
  UsernameField,
  UserResponseSchema,
} from "../../schemas/account/account.ts";
import * as accountDeletion from "../../store/account/deletion.ts";
import { buildExport } from "../../store/export.ts";
import { buildSnapshot } from "../../store/snapshot.ts";
import { findUserIdByUsername, updateUser } from "../../store/account/users.ts";
import { ensureRebuilt } from "../../store/insights/sums.ts";

interface ProfileField {
  path: string;
  field: keyof UserRecord;
  schema: z.ZodType;
  summary: string;
}

/** The profile endpoints: each sets one field of the account and answers `{user}`. */
const PROFILE_FIELDS: ProfileField[] = [
  { path: "username", field: "username", schema: UsernameField, summary: "Set the username" },
  {
    path: "display-name",
    field: "displayName",
    schema: DisplayNameField,
    summary: "Set or clear the display name",
  },
  {
    path: "visibility",
    field: "publicProfile",
    schema: z.boolean().openapi({
      description: "Whether `GET /api/profile/...` shows the account",
    }),
    summary: "Make the profile public or private",
  },
  {
    path: "public-stats",
    field: "publicStats",
    schema: z.boolean().openapi({
      description: "Show order counts on the public profile, the account's order count and " +
        "spend (summed order cost) on the leaderboard while the profile is public too, and " +
        "mirror chat-bot checkouts to the community feed",
    }),
    summary: "Turn public stats on or off",
  },
  { path: "timezone", field: "timezone", schema: TimezoneField, summary: "Set the timezone" },
];

function profileFieldRoute(spec: ProfileField) {
  return createRoute({
    method: "post",
    path: `/${spec.path}`,
    tags: ["Account"],
    summary: spec.summary,
    ...authed,
    request: { body: jsonBody(z.object({ [spec.field]: spec.schema })) },
    responses: {
      200: jsonResponse(UserResponseSchema, "The updated account"),
      ...errors(400, 401, ...(spec.field === "username" ? [409] : []), 413),
    },
  });
}

/** The handler of one profile field's route (`setUsername`, `setTimezone`, ...). */
function setProfileField(
  spec: ProfileField,
): AppRouteHandler<ReturnType<typeof profileFieldRoute>> {
  return async function setProfileField(c) {
    const value = (c.req.valid("json") as Record<string, unknown>)[spec.field];
    const updated = await updateUser(c.var.deps.kv, c.var.auth.userId, (user) => ({
      ...user,
      [spec.field]: value,
    }));
    if (!updated) throw unauthorized();
    if (!updated.ok) throw new ApiError(409, "Username is taken");
    if (spec.field === "timezone") {
      // A new zone moves days and months: its insight sums are rebuilt (store/insights/sums.ts).
      const { deps, auth } = c.var;
      deps.background.run("insights rebuild", () => ensureRebuilt(deps.kv, auth.userId));
    }
    return c.json({ user: toPublicUser(updated.user) }, 200);
  };
}

function addProfileField(router: Router, spec: ProfileField) {
  router.openapi(profileFieldRoute(spec), setProfileField(spec));
}

const AvailabilitySchema = z.object({
  username: z.string(),
  available: z.boolean(),
  reason: z.string().optional().openapi({ description: "Why not: a broken rule, or `taken`" }),
}).openapi("UsernameAvailability");

const checkUsernameAvailableRoute = createRoute({
  method: "get",
  path: "/username/available",
  tags: ["Account"],
  summary: "Whether a username can be taken",
  description: "The caller's own username counts as available.",
  ...authed,
  request: { query: z.object({ u: z.string().openapi({ example: "parcel_fan" }) }) },
  responses: {
    200: jsonResponse(AvailabilitySchema, "The verdict"),
    ...errors(400, 401),
  },
});

const getStateRoute = createRoute({
  method: "get",
  path: "/",
  tags: ["Account"],
  summary: "Workspace snapshot",
  description: "Everything in one response; it grows with the workspace, so integrations " +
    "should prefer the paginated endpoints.",
  ...authed,
  responses: {
    200: jsonResponse(SnapshotSchema, "The snapshot"),
    ...errors(401),
  },
});

const exportAccountRoute = createRoute({
  method: "get",
  path: "/export",
  tags: ["Account"],
  summary: "Download the account export",
  description: "Sent as an attachment. Session token only: an API key gets 401. Secrets are " +
    "excluded (password hash, one-time tokens, API key hashes, mailbox passwords and OAuth " +
    "tokens, webhook signing secrets; chat webhook URLs are cut to their host).",
  ...sessionOnly,
  responses: {
    200: jsonResponse(ExportSchema, "The export document"),
    ...errors(401),
  },
});

const DeleteBody = z.object({
  confirmEmail: z.string().optional().openapi({
    description: "The account email, compared after trimming and ignoring case",
  }),
}).openapi("DeleteAccountRequest");

const deleteAccountRoute = createRoute({
  method: "delete",
  path: "/",
  tags: ["Account"],
  summary: "Delete the account and everything it owns",
  description: "Session token only. Removes every record, index and counter share of the " +
    "account and ends its sessions and API keys.",
  ...sessionOnly,
  request: { body: jsonBody(DeleteBody) },
  responses: {
    200: jsonResponse(OkSchema, "Deleted"),
    ...errors(400, 401, 413),
  },
});

export const checkUsernameAvailable: AppRouteHandler<typeof checkUsernameAvailableRoute> = async (
  c,
) => {
  const wanted = c.req.valid("query").u.trim();
  const checked = checkUsername(wanted);
  if (!checked.ok) {
    return c.json(
      { username: wanted, available: false, reason: `username ${checked.error}` },
      200,
    );
  }
  const holder = await findUserIdByUsername(c.var.deps.kv, checked.value);
  const available = !holder || holder === c.var.auth.userId;
  return c.json(
    available
      ? { username: checked.value, available }
      : { username: checked.value, available, reason: "taken" },
    200,
  );
};

export const getState: AppRouteHandler<typeof getStateRoute> = async (c) => {
  const user = await currentUser(c);
  return c.json(await buildSnapshot(workspaceOf(c, user, builtInTemplates())), 200);
};

export const exportAccount: AppRouteHandler<typeof exportAccountRoute> = async (c) => {
  const user = await currentUser(c);
  const document = await buildExport(workspaceOf(c, user, builtInTemplates()));
  const day = document.exportedAt.slice(0, 10);
  c.header("Content-Disposition", `attachment; filename="order-tracker-export-${day}.json"`);
  c.header("Cache-Control", "no-store");
  return c.json(document, 200);
};

export const deleteAccount: AppRouteHandler<typeof deleteAccountRoute> = async (c) => {
  const user = await currentUser(c);
  const typed = c.req.valid("json").confirmEmail;
  if (typed === undefined || normaliseEmail(typed) !== user.email) {
    throw badRequest("To delete the account, type its email address exactly in confirmEmail");
  }
  if (!await accountDeletion.deleteAccount(c.var.deps.kv, user.id)) throw unauthorized();
  // The insight sums cache is memory, not KV: forget the workspace there too.
  c.var.deps.insightSums.drop(user.id);
  return c.json({ ok: true as const }, 200);
};

const router = createRouter();
for (const field of PROFILE_FIELDS) addProfileField(router, field);

/** The account's settings, under `/account` (API keys and invitations have routers of their own). */
export const accountRoutes = router.openapi(checkUsernameAvailableRoute, checkUsernameAvailable);

/** `/state`: the workspace snapshot. */
export const stateRoutes = createRouter().openapi(getStateRoute, getState);

/** The account's data, under `/account`: download it, or delete the account. */
export const accountDataRoutes = createRouter()
  .openapi(exportAccountRoute, exportAccount)
  .openapi(deleteAccountRoute, deleteAccount);
