import { createRoute, z } from "@hono/zod-openapi";
import { USERNAME_MAX } from "../../domain/account/profile.ts";
import type { UserRecord } from "../../domain/account/user.ts";
import { MAX_ID_LENGTH } from "../../lib/ids.ts";
import { principalOf } from "../../http/auth.ts";
import { found, resourceParam } from "../../http/scope.ts";
import { errors, jsonResponse, optionalAuth } from "../../http/openapi.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { countOrders } from "../../store/orders/list.ts";
import { compact } from "../../lib/compact.ts";
import { findUserIdByUsername, getUser } from "../../store/account/users.ts";

const ProfileSchema = z.object({
  id: z.string(),
  username: z.string().optional(),
  displayName: z.string().optional(),
  createdAt: z.string(),
  publicProfile: z.boolean().openapi({
    description: "False only when the owner looks at their own private profile",
  }),
  publicStats: z.boolean(),
  stats: z.object({ ordersTracked: z.number().int() }).optional().openapi({
    description: "Present when the account shows public stats",
  }),
}).openapi("PublicProfile");

const PROFILE_NOT_FOUND = "Profile not found";

const getProfileRoute = createRoute({
  method: "get",
  path: "/{usernameOrUserId}",
  tags: ["Public"],
  summary: "A public profile",
  description: "By username (any case) or user id. Never the email or other private fields. " +
    'A private profile is 404 `{error: "Profile not found"}` unless the bearer token (optional ' +
    "here) belongs to its owner.",
  ...optionalAuth,
  request: {
    // Usernames are shorter than ids; the bound must not cut either kind of reference.
    params: resourceParam("usernameOrUserId", PROFILE_NOT_FOUND, {
      example: "parcel_fan",
      max: Math.max(MAX_ID_LENGTH, USERNAME_MAX),
    }),
  },
  responses: {
    200: jsonResponse(z.object({ profile: ProfileSchema }), "The profile"),
    ...errors(404),
  },
});

async function findProfileOwner(kv: Deno.Kv, ref: string): Promise<UserRecord | null> {
  // Usernames cannot start with `usr_`, so the two kinds of reference never collide.
  if (ref.startsWith("usr_")) return await getUser(kv, ref);
  const id = await findUserIdByUsername(kv, ref);
  return id ? await getUser(kv, id) : null;
}

export const getProfile: AppRouteHandler<typeof getProfileRoute> = async (c) => {
  const { kv } = c.var.deps;
  const owner = await findProfileOwner(kv, c.req.valid("param").usernameOrUserId);
  // A private profile is visible to its owner only; to anyone else it does not exist.
  const visible = owner && (owner.publicProfile || (await principalOf(c))?.userId === owner.id);
  const user = found(visible && owner, PROFILE_NOT_FOUND);
  const stats = user.publicStats ? { ordersTracked: await countOrders(kv, user.id) } : undefined;
  const profile = {
    id: user.id,
    username: user.username,
    displayName: user.displayName,
    createdAt: user.createdAt,
    publicProfile: user.publicProfile,
    publicStats: user.publicStats,
    stats,
  };
  return c.json({ profile: compact(profile) }, 200);
};

export const profileRoutes = createRouter().openapi(getProfileRoute, getProfile);
