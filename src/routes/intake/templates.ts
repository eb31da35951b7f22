import { createRoute, z } from "@hono/zod-openapi";
import { badRequest } from "../../http/errors.ts";
import { authed, errors, jsonBody, jsonResponse, OkSchema } from "../../http/openapi.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { found, resourceParam } from "../../http/scope.ts";
import { compileTemplate } from "../../intake/email/custom.ts";
import { builtInTemplates } from "../../intake/email/templates.ts";
import { newId } from "../../lib/ids.ts";
import {
  BuiltInTemplateSchema,
  CreateTemplateBody,
  PatchTemplateBody,
  TemplateSchema,
} from "../../schemas/intake/email.ts";
import {
  changeTemplate,
  createTemplate,
  deleteTemplate,
  getTemplate,
  listTemplates,
  type StoredTemplate,
} from "../../store/intake/templates.ts";

const TAGS = ["Templates"];
const NOT_FOUND = "Template not found";
const IdParam = resourceParam("id", NOT_FOUND, { example: "tmpl_01jq4w5v2x8c9d0e1f" });
const TemplateEnvelope = z.object({ template: TemplateSchema }).openapi("TemplateEnvelope");

const getTemplatesRoute = createRoute({
  ...authed,
  method: "get",
  path: "/",
  tags: TAGS,
  summary: "Built-in and custom email templates",
  responses: {
    200: jsonResponse(
      z.object({ builtIn: z.array(BuiltInTemplateSchema), custom: z.array(TemplateSchema) }),
      "Every template; custom ones newest first (the order they are tried in)",
    ),
    ...errors(401),
  },
});

const listCustomRoute = createRoute({
  ...authed,
  method: "get",
  path: "/custom",
  tags: TAGS,
  summary: "Custom templates, newest first",
  responses: {
    200: jsonResponse(z.object({ items: z.array(TemplateSchema) }), "The custom templates"),
    ...errors(401),
  },
});

const createCustomRoute = createRoute({
  ...authed,
  method: "post",
  path: "/custom",
  tags: TAGS,
  summary: "Create a custom template",
  description: "Tried newest first, before the built-in templates, on every message whose " +
    "sender matches `match.from` (an address or `@domain`) and/or whose subject matches " +
    "`match.subject` (both when both are given). Each entry of `fields` is a regular " +
    "expression whose first capture group is the field's value. Expressions run in linear " +
    "time (no backreferences or lookaround); an invalid one is 400 naming it.",
  request: { body: jsonBody(CreateTemplateBody) },
  responses: { 201: jsonResponse(TemplateEnvelope, "Created"), ...errors(400, 401, 413) },
});

const updateCustomRoute = createRoute({
  ...authed,
  method: "patch",
  path: "/custom/{id}",
  tags: TAGS,
  summary: "Change a custom template",
  description: "Changes the fields sent, validated as on create.",
  request: { params: IdParam, body: jsonBody(PatchTemplateBody) },
  responses: { 200: jsonResponse(TemplateEnvelope, "Changed"), ...errors(400, 401, 404, 413) },
});

const deleteCustomRoute = createRoute({
  ...authed,
  method: "delete",
  path: "/custom/{id}",
  tags: TAGS,
  summary: "Delete a custom template",
  request: { params: IdParam },
  responses: { 200: jsonResponse(OkSchema, "Deleted"), ...errors(401, 404) },
});

/** A template as sent must compile; the first invalid expression is a 400 naming it. */
function valid(t: StoredTemplate): StoredTemplate {
  const compiled = compileTemplate(t);
  if ("error" in compiled) throw badRequest(compiled.error);
  return t;
}

export const getTemplates: AppRouteHandler<typeof getTemplatesRoute> = async (c) => {
  const custom = await listTemplates(c.var.deps.kv, c.var.auth.userId);
  return c.json({ builtIn: builtInTemplates(), custom }, 200);
};

export const listCustom: AppRouteHandler<typeof listCustomRoute> = async (c) => {
  return c.json({ items: await listTemplates(c.var.deps.kv, c.var.auth.userId) }, 200);
};

export const createCustom: AppRouteHandler<typeof createCustomRoute> = async (c) => {
  const { kv, now } = c.var.deps;
  const body = c.req.valid("json");
  const at = now();
  const template = valid({
    id: newId("tmpl", at),
    name: body.name,
    match: body.match,
    fields: body.fields,
    ...(body.status ? { status: body.status } : {}),
    createdAt: new Date(at).toISOString(),
  });
  await createTemplate(kv, c.var.auth.userId, template);
  return c.json({ template }, 201);
};

export const updateCustom: AppRouteHandler<typeof updateCustomRoute> = async (c) => {
  const { kv, now } = c.var.deps;
  const body = c.req.valid("json");
  const userId = c.var.auth.userId;
  const { id } = c.req.valid("param");
  const current = found(await getTemplate(kv, userId, id), NOT_FOUND);
  const next = valid({
    ...current,
    ...Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)),
    updatedAt: new Date(now()).toISOString(),
  });
  const stored = found(await changeTemplate(kv, userId, id, () => next), NOT_FOUND);
  return c.json({ template: stored }, 200);
};

export const deleteCustom: AppRouteHandler<typeof deleteCustomRoute> = async (c) => {
  found(
    await deleteTemplate(c.var.deps.kv, c.var.auth.userId, c.req.valid("param").id),
    NOT_FOUND,
  );
  return c.json({ ok: true as const }, 200);
};

export const templateRoutes = createRouter()
  .openapi(getTemplatesRoute, getTemplates)
  .openapi(listCustomRoute, listCustom)
  .openapi(createCustomRoute, createCustom)
  .openapi(updateCustomRoute, updateCustom)
  .openapi(deleteCustomRoute, deleteCustom);
