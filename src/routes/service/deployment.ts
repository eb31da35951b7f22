/**
 * `GET /api/deployment`: what this deployment can do, for the dashboard to say where it
 * matters (a forwarding address mail cannot reach yet, links that say localhost, a link that
 * went to the server log). The same reading as the start-up line (src/capabilities.ts); the
 * carriers with credentials are `GET /api/carriers`.
 */
import { createRoute } from "@hono/zod-openapi";
import { capabilities } from "../../capabilities.ts";
import { CURRENCIES } from "../../domain/insights/currency.ts";
import { authed, errors, jsonResponse } from "../../http/openapi.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { checkSecretsKey, SECRETS_MISMATCH_TEXT } from "../../store/secrets_check.ts";
import { DeploymentSchema } from "../../schemas/service/deployment.ts";

const getDeploymentRoute = createRoute({
  ...authed,
  method: "get",
  path: "/",
  tags: ["Workspace"],
  summary: "What this deployment can do",
  description: "Facts of the operator's configuration a user meets: whether forwarded mail " +
    "can arrive, whether mail goes out, whether billing is on, what links say. No secret.",
  responses: {
    200: jsonResponse(DeploymentSchema, "The deployment's capabilities"),
    ...errors(401),
  },
});

export const getDeployment: AppRouteHandler<typeof getDeploymentRoute> = async (c) => {
  const { config, kv, secrets } = c.var.deps;
  const secretsKey = await checkSecretsKey(kv, secrets);
  return c.json({
    ...capabilities(config),
    currencies: [...CURRENCIES],
    secretsKey,
    ...(secretsKey === "mismatch" ? { secretsProblem: SECRETS_MISMATCH_TEXT } : {}),
  }, 200);
};

export const deploymentRoutes = createRouter().openapi(getDeploymentRoute, getDeployment);
