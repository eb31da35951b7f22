/**
 * What every operation of the OpenAPI document carries whatever its route declares, added
 * once the document is generated: its `operationId`, its `security` (`[]` when public), the
 * 413 of the body limit, the 500 any handler may answer and, on operations with a JSON body,
 * the `warnings` of their success answers (field_warnings.ts).
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { ErrorSchema } from "./errors.ts";
import { FieldWarningsSchema } from "./field_warnings.ts";
import { ERROR_TEXT } from "./openapi.ts";
import { operationIdOf } from "./operation_ids.ts";

export type OpenApiDocument = ReturnType<OpenAPIHono["getOpenAPI31Document"]>;

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
/** Methods whose body src/http/body.ts reads, up to 2 MiB. */
const BODY_METHODS = new Set<string>(["post", "put", "patch", "delete"]);

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

/** The responses every operation shares, as components. */
export function registerSharedResponses(app: OpenAPIHono<never>) {
  app.openAPIRegistry.register("Error", ErrorSchema);
  app.openAPIRegistry.register("FieldWarnings", FieldWarningsSchema);
  app.openAPIRegistry.registerComponent("responses", "TooLarge", errorResponse(ERROR_TEXT[413]));
  app.openAPIRegistry.registerComponent(
    "responses",
    "InternalError",
    errorResponse('Unexpected failure: `{"error": "Internal server error"}`, details logged'),
  );
}

export function finishOperations(document: OpenApiDocument): OpenApiDocument {
  const paths = Object.keys(document.paths ?? {});
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item?.[method];
      if (!operation) continue;
      operation.operationId ??= operationIdOf(method, path, paths);
      operation.security ??= [];
      const responses = operation.responses ??= {};
      if (BODY_METHODS.has(method)) {
        responses["413"] ??= { $ref: "#/components/responses/TooLarge" };
      }
      responses["500"] ??= { $ref: "#/components/responses/InternalError" };
      if (operation.requestBody && "content" in operation.requestBody) {
        if (operation.requestBody.content["application/json"]) addWarnings(responses);
      }
    }
  }
  return document;
}

const WARNINGS_REF = { $ref: "#/components/schemas/FieldWarnings" };

/** Success answers of an operation with a JSON body may carry `warnings`. */
function addWarnings(responses: Record<string, unknown>) {
  for (const [status, response] of Object.entries(responses)) {
    if (!status.startsWith("2") || !response || typeof response !== "object") continue;
    const content = (response as { content?: Record<string, { schema?: unknown }> }).content;
    const media = content?.["application/json"];
    if (!media?.schema) continue;
    media.schema = { allOf: [media.schema, WARNINGS_REF] };
  }
}
