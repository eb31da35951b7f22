import { createRoute, z } from "@hono/zod-openapi";
import { authed, errors, jsonBody, jsonResponse } from "../../http/openapi.ts";
import { receiverUrlChange } from "../../http/receiver_url.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { ReceiverUrl } from "../../schemas/webhooks/subscriptions.ts";
import * as settingsStore from "../../store/account/settings.ts";
import { CURRENCIES } from "../../domain/insights/currency.ts";
import { currentUser } from "../../http/auth.ts";

const URL_FIELD = "Receiver URL under the private-address rule (`https:`, no private or " +
  "internal address); an empty string or null clears it.";

const SettingsSchema = z.object({
  outputWebhook: z.string().optional(),
  updatesWebhook: z.string().optional(),
  forwardOn: z.boolean(),
  currency: z.enum(CURRENCIES).openapi({
    description:
      "The workspace currency: as set, else the default of the account's time zone (USD when the zone names no other). Imported orders whose total is printed in it count that total as their cost.",
  }),
  updatedAt: z.string().optional(),
}).openapi("WorkspaceSettings");

const UrlSetting = z.union([ReceiverUrl, z.literal(""), z.null()]).optional();

const updateSettingsRoute = createRoute({
  ...authed,
  method: "post",
  path: "/",
  tags: ["Workspace"],
  summary: "Change workspace settings",
  description: "Changes only the fields sent. URL errors start with the field name.",
  request: {
    body: jsonBody(
      z.object({
        outputWebhook: UrlSetting.openapi({
          description: `Where orders are forwarded. ${URL_FIELD}`,
        }),
        updatesWebhook: UrlSetting.openapi({ description: `Where order updates go. ${URL_FIELD}` }),
        forwardOn: z.boolean().optional().openapi({
          description: "Forward orders to `outputWebhook`",
        }),
        currency: z.enum(CURRENCIES).optional().openapi({
          description: "The workspace currency (ISO 4217 code)",
        }),
      }).openapi("SettingsChange"),
    ),
  },
  responses: {
    200: jsonResponse(z.object({ settings: SettingsSchema }), "The settings after the change"),
    ...errors(400, 401, 413),
  },
});

export const updateSettings: AppRouteHandler<typeof updateSettingsRoute> = async (c) => {
  const deps = c.var.deps;
  const body = c.req.valid("json");
  const settings = await settingsStore.updateSettings(deps.kv, c.var.auth.userId, {
    outputWebhook: await receiverUrlChange(deps, "outputWebhook", body.outputWebhook),
    updatesWebhook: await receiverUrlChange(deps, "updatesWebhook", body.updatesWebhook),
    forwardOn: body.forwardOn,
    currency: body.currency,
  }, deps.now());
  const user = await currentUser(c);
  return c.json(
    { settings: { ...settings, currency: settingsStore.currencyOf(settings, user) } },
    200,
  );
};

export const settingsRoutes = createRouter().openapi(updateSettingsRoute, updateSettings);
