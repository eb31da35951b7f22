import assert from "node:assert/strict";
import { issueSession } from "../../src/store/account/credentials.ts";
import { call, signUp, testApp, type TestContext } from "../helpers.ts";

/**
 * Over-long input, sent to every operation the OpenAPI document lists (so a new route is
 * covered without touching this file): every path parameter, every query parameter and every
 * top-level string field of a JSON body. KV refuses keys over 2048 bytes, so any of these that
 * reached a key unbounded would be a 500.
 */

type Schema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  example?: unknown;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  items?: Schema;
  minItems?: number;
  minimum?: number;
  properties?: Record<string, Schema>;
};

interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  schema: Schema;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  security?: unknown[];
  responses?: Record<string, unknown>;
}

interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/**
 * Over 2 KiB three ways: ASCII; 700 three-byte characters (under a bound of 1000 characters,
 * still over 2 KiB, as KV counts bytes); four-byte characters (surrogate pairs).
 */
const LONG_VALUES: [string, string][] = [
  ["ascii", "a".repeat(3000)],
  ["3-byte", "€".repeat(700)],
  ["4-byte", "😀".repeat(600)],
];

/** A short id that names nothing: what an over-long one must look like. */
const UNKNOWN = "nonexistent";

function resolve(doc: Document, schema: Schema): Schema {
  if (!schema.$ref) return schema;
  return resolve(doc, doc.components.schemas[schema.$ref.replace("#/components/schemas/", "")]);
}

function types(schema: Schema): string[] {
  return Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
}

/** A valid-looking value for a schema: its example, else a plain one of its type. */
function sample(doc: Document, raw: Schema): unknown {
  const schema = resolve(doc, raw);
  if (schema.example !== undefined) return schema.example;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const choices = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (choices) return sample(doc, choices.find((s) => !types(s).includes("null")) ?? choices[0]);
  const type = types(schema).find((t) => t !== "null");
  switch (type) {
    case "object":
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([k, v]) => [k, sample(doc, v)]),
      );
    case "array":
      return Array.from(
        { length: Math.max(1, schema.minItems ?? 1) },
        () => sample(doc, schema.items ?? {}),
      );
    case "integer":
    case "number":
      return schema.minimum ?? 1;
    case "boolean":
      return true;
    case "string":
      if (schema.format === "date") return "2025-01-02";
      if (schema.format === "date-time") return "2025-01-02T03:04:05.000Z";
      if (schema.format === "email") return "probe@example.com";
      if (schema.format === "uri") return "https://probe.example/";
      return "probe";
    default:
      return null;
  }
}

/** Whether a schema accepts a string (directly or as one of its choices). */
function takesString(doc: Document, raw: Schema): boolean {
  const schema = resolve(doc, raw);
  const choices = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (choices) return choices.some((s) => takesString(doc, s));
  return types(schema).includes("string");
}

interface Probe {
  label: string;
  method: string;
  path: Record<string, string>;
  query: Record<string, string>;
  body?: Record<string, unknown>;
}

let client = 0;

/** Sends one probe; a 500 is added to `problems`. */
async function send(
  ctx: TestContext,
  userId: string,
  template: string,
  probe: Probe,
  problems: string[],
) {
  let url = template;
  for (const [name, value] of Object.entries(probe.path)) {
    url = url.replace(`{${name}}`, encodeURIComponent(value));
  }
  const query = new URLSearchParams(probe.query).toString();
  if (query) url += `?${query}`;
  // A fresh session each time (one probe signs out) and a fresh client address (rate limits).
  const res = await call(ctx, probe.method, url, {
    token: await issueSession(ctx.kv, userId),
    body: probe.body,
    headers: {
      "x-forwarded-for": `10.${client >> 16 & 255}.${client >> 8 & 255}.${client++ & 255}`,
    },
  });
  // Anything thrown that is not an ApiError (such as KV's "Key too large") answers 500.
  if (res.status === 500) problems.push(`${probe.label}: ${JSON.stringify(res.body)}`);
  return res;
}

/** Every operation of the document, each with the probes of its parameters and fields. */
function operations(doc: Document) {
  const out: {
    template: string;
    method: string;
    params: Parameter[];
    body?: Schema;
    unknownStatus: number;
  }[] = [];
  for (const [template, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      // A public URL whose path is the credential (chat intake, the embed copier) answers an
      // unknown value 401, as it documents; every other path parameter names a resource: 404.
      const credentialPath = !op.security?.length && op.responses?.["401"] &&
        !op.responses?.["404"];
      out.push({
        template,
        method: method.toUpperCase(),
        params: op.parameters ?? [],
        body: op.requestBody?.content["application/json"]?.schema,
        unknownStatus: credentialPath ? 401 : 404,
      });
    }
  }
  return out;
}

Deno.test("long input: no operation of the OpenAPI document answers 500 to an over-long value", async () => {
  await using ctx = await testApp({}, {
    deps: { outbound: { resolver: { resolve: () => Promise.resolve([]) } } },
  });
  const { user } = await signUp(ctx);
  const doc = (await call<Document>(ctx, "GET", "/api/openapi.json")).body;
  const problems: string[] = [];
  let pathProbes = 0;
  let fieldProbes = 0;

  for (const op of operations(doc)) {
    const pathParams = op.params.filter((p) => p.in === "path");
    const queryParams = op.params.filter((p) => p.in === "query");
    // A valid body, so the path probes reach the lookup and each field probe changes one field.
    const body = op.body ? sample(doc, op.body) as Record<string, unknown> : undefined;
    const basePath = Object.fromEntries(pathParams.map((p) => [p.name, UNKNOWN]));
    const name = `${op.method} ${op.template}`;

    // An over-long path parameter names nothing: the same 404 (or 401) as an unknown short one.
    for (const param of pathParams) {
      const unknown = await send(ctx, user.id, op.template, {
        label: `${name} ${param.name}=${UNKNOWN}`,
        method: op.method,
        path: basePath,
        query: {},
        body,
      }, problems);
      assert.equal(unknown.status, op.unknownStatus, `${name} with an unknown ${param.name}`);
      for (const [kind, value] of LONG_VALUES) {
        const label = `${name} ${param.name} ${kind}`;
        const res = await send(ctx, user.id, op.template, {
          label,
          method: op.method,
          path: { ...basePath, [param.name]: value },
          query: {},
          body,
        }, problems);
        if (
          res.status !== op.unknownStatus ||
          JSON.stringify(res.body) !== JSON.stringify(unknown.body)
        ) {
          problems.push(`${label}: ${res.status} ${JSON.stringify(res.body)}, not as unknown`);
        }
        pathProbes++;
      }
    }

    const fields = Object.entries(resolve(doc, op.body ?? {}).properties ?? {})
      .filter(([, schema]) => takesString(doc, schema))
      .map(([field]) => field);
    for (const [kind, value] of LONG_VALUES) {
      for (const param of queryParams) {
        await send(ctx, user.id, op.template, {
          label: `${name} ?${param.name} ${kind}`,
          method: op.method,
          path: basePath,
          query: { [param.name]: value },
          body,
        }, problems);
        fieldProbes++;
      }
      for (const field of fields) {
        await send(ctx, user.id, op.template, {
          label: `${name} body.${field} ${kind}`,
          method: op.method,
          path: basePath,
          query: {},
          body: { ...body, [field]: value },
        }, problems);
        fieldProbes++;
      }
    }
  }
  assert.deepEqual(problems, []);
  // The walk really covered the API (ids of four resources and the docs' file, 56 fields).
  assert.ok(pathProbes >= 3 * 11, `${pathProbes} path probes`);
  assert.ok(fieldProbes >= 3 * 50, `${fieldProbes} field probes`);
});

Deno.test("long input: sign-in and recovery treat an over-long email as an unknown account", async () => {
  await using ctx = await testApp();
  await signUp(ctx, { email: "sam@example.com" });
  for (const [kind, value] of LONG_VALUES) {
    for (const email of [value, `${value}@example.com`, `sam@${value}.com`]) {
      const login = await call(ctx, "POST", "/api/auth/login", {
        body: { email, password: "correct horse battery" },
        headers: { "x-forwarded-for": `10.1.0.${++client & 255}` },
      });
      assert.equal(login.status, 401, kind);
      assert.deepEqual(login.body, { error: "Invalid email or password" });
      const forgot = await call(ctx, "POST", "/api/auth/forgot-password", {
        body: { email },
        headers: { "x-forwarded-for": `10.2.0.${++client & 255}` },
      });
      assert.equal(forgot.status, 200, kind);
      assert.deepEqual(forgot.body, { ok: true });
    }
  }
});

Deno.test("long input: a public profile with an over-long reference is not found", async () => {
  await using ctx = await testApp();
  for (const [kind, value] of [...LONG_VALUES, ["user id", `usr_${"a".repeat(3000)}`]]) {
    const res = await call(ctx, "GET", `/api/profile/${encodeURIComponent(value)}`);
    assert.equal(res.status, 404, kind);
    assert.deepEqual(res.body, { error: "Profile not found" });
  }
});

Deno.test("long input: an over-long order number is a 400 naming the field", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  for (const [kind, value] of LONG_VALUES) {
    const res = await call(ctx, "POST", "/api/orders", {
      token,
      body: { itemSummary: "Cable", orderNumber: value },
    });
    assert.equal(res.status, 400, kind);
    assert.match(String(res.body.error), /^orderNumber: /);
  }
  const list = await call(ctx, "GET", "/api/orders", { token });
  assert.equal(list.body.total, 0);
});
