/** `POST /api/account/invitations`: a single-use invitation link (REGISTRATION=invite). */
import { createRoute, z } from "@hono/zod-openapi";
import { ApiError, unauthorized } from "../../http/errors.ts";
import { errors, jsonResponse, sessionOnly } from "../../http/openapi.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { issueInvitation } from "../../store/account/invitations.ts";

const InvitationSchema = z.object({
  url: z.string().openapi({
    description: "The registration page with the invitation: works once, for 7 days",
    example: "https://orders.example.org/register?invite=3q2-…",
  }),
  expiresAt: z.string(),
}).openapi("Invitation");

const invitationsRoute = createRoute({
  ...sessionOnly,
  method: "post",
  path: "/",
  tags: ["Account"],
  summary: "Invite someone to register",
  description: "With `REGISTRATION=invite`, a link whose page creates one account (the token " +
    "is spent by that registration). 409 when this server's registration is `open` (no " +
    "invitation needed) or `closed`.",
  responses: {
    201: jsonResponse(InvitationSchema, "The invitation link"),
    ...errors(401, 409),
  },
});

export const invitations: AppRouteHandler<typeof invitationsRoute> = async (c) => {
  const { kv, config, now } = c.var.deps;
  if (config.registration !== "invite") {
    throw new ApiError(
      409,
      config.registration === "open"
        ? "Anyone may register on this server: no invitation is needed."
        : "New accounts are closed on this server: invitations are off.",
    );
  }
  const issued = await issueInvitation(kv, c.var.auth.userId, now());
  if (!issued) throw unauthorized();
  const url = `${config.baseUrl}/register?invite=${encodeURIComponent(issued.token)}`;
  return c.json({ url, expiresAt: issued.expiresAt }, 201);
};

export const invitationRoutes = createRouter().openapi(invitationsRoute, invitations);
