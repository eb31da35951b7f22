/**
 * Embed samples: the embeds of recent chat posts the reader ignored, kept so a user can write a
 * template for what a bot sends. Listed in the API document with the embed copier.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { authed, errors, jsonResponse, OkSchema } from "../../http/openapi.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { found, resourceParam } from "../../http/scope.ts";
import { EmbedSampleSchema } from "../../schemas/intake/chat_posts.ts";
import { deleteSample, listSamples, SAMPLES_LISTED } from "../../store/intake/embed_samples.ts";

const TAGS = ["Embed copier"];

const listEmbedSamplesRoute = createRoute({
  ...authed,
  method: "get",
  path: "/",
  tags: TAGS,
  summary: "Recent ignored chat posts",
  description: `The embeds of up to ${SAMPLES_LISTED} recent chat posts that were ignored ` +
    "(no checkout read from them), newest first, private values removed: what a bot sends, " +
    "for writing a template. Each is kept 30 days.",
  responses: {
    200: jsonResponse(z.object({ items: z.array(EmbedSampleSchema) }), "The samples"),
    ...errors(401),
  },
});

const NOT_FOUND = "Embed sample not found";

const deleteEmbedSampleRoute = createRoute({
  ...authed,
  method: "delete",
  path: "/{id}",
  tags: TAGS,
  summary: "Delete an embed sample",
  request: {
    params: resourceParam("id", NOT_FOUND, { example: "log_01j9z3k8q2m4n6p8r0t2v4x6z8" }),
  },
  responses: { 200: jsonResponse(OkSchema, "Deleted"), ...errors(401, 404) },
});

export const listEmbedSamples: AppRouteHandler<typeof listEmbedSamplesRoute> = async (c) => {
  const deps = c.var.deps;
  return c.json({ items: await listSamples(deps.kv, c.var.auth.userId, deps.now()) }, 200);
};

export const deleteEmbedSample: AppRouteHandler<typeof deleteEmbedSampleRoute> = async (c) => {
  const deleted = await deleteSample(c.var.deps.kv, c.var.auth.userId, c.req.valid("param").id);
  found(deleted, NOT_FOUND);
  return c.json({ ok: true as const }, 200);
};

/** `/embed-samples`: recent chat posts the reader ignored. */
export const embedSampleRoutes = createRouter()
  .openapi(listEmbedSamplesRoute, listEmbedSamples)
  .openapi(deleteEmbedSampleRoute, deleteEmbedSample);
