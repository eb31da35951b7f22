import { createRoute } from "@hono/zod-openapi";
import { monthlyCap, usageResetsAt } from "../domain/plan.ts";
import { currentUser } from "../http/auth.ts";
import { authed, errors, jsonResponse } from "../http/openapi.ts";
import { createRouter } from "../http/router.ts";
import { UsageSchema } from "../schemas/billing.ts";
import { ordersCreatedThisMonth } from "../store/order_list.ts";

const usage = createRoute({
  ...authed,
  method: "get",
  path: "/billing/usage",
  tags: ["Billing"],
  summary: "New orders this month and the plan's cap",
  description: "Months are calendar months of the account's timezone. `cap` is null when " +
    "unlimited: paid plans, or a deployment without billing.",
  responses: {
    200: jsonResponse(UsageSchema, "Usage of the current month"),
    ...errors(401),
  },
});

export const billingRoutes = createRouter()
  .openapi(usage, async (c) => {
    const { deps } = c.var;
    const user = await currentUser(c);
    const now = deps.now();
    return c.json({
      plan: user.plan,
      used: await ordersCreatedThisMonth(deps.kv, user, now),
      cap: monthlyCap(user, deps.config),
      resetsAt: usageResetsAt(user, now),
      billingEnabled: deps.config.billingEnabled,
    }, 200);
  });
