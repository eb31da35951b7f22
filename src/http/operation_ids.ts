/**
 * The `operationId` of every operation, derived in one place from its method and path so that
 * generated clients get stable method names (`listOrders`, `createWebhookSubscription`).
 */

/**
 * Names where the derived one reads badly, by `METHOD /path`. A route may also set its own
 * `operationId` in `createRoute`; either way the names must stay unique (tested).
 */
export const OPERATION_ID_OVERRIDES: Record<string, string> = {
  "GET /api": "getApiReference",
  "GET /api/openapi.json": "getOpenApiDocument",
  "GET /api/reference/{file}": "getReferenceAsset",
  "GET /api/healthz": "getHealth",
  "POST /api/auth/discord/widget-verify": "discordWidgetVerify",
  "DELETE /api/auth/sessions": "endOtherSessions",
  "DELETE /api/auth/identities/{provider}": "unlinkIdentity",
  "GET /api/account/username/available": "checkUsernameAvailable",
  "GET /api/account/export": "exportAccount",
  "POST /api/account/username": "setUsername",
  "POST /api/account/display-name": "setDisplayName",
  "POST /api/account/visibility": "setVisibility",
  "POST /api/account/public-stats": "setPublicStats",
  "POST /api/account/timezone": "setTimezone",
  "POST /api/settings": "updateSettings",
  "POST /api/inbound/mail": "receiveInboundMail",
  "GET /s/{slug}": "getSharePage",
  "GET /s/{slug}.png": "getShareImage",
};

const ITEM_VERBS: Record<string, string> = {
  get: "get",
  put: "replace",
  patch: "update",
  delete: "delete",
  post: "create",
};

const isParam = (segment: string) => segment.startsWith("{");
const wordsOf = (segment: string) => segment.split(/[^A-Za-z0-9]+/).filter(Boolean);
const pascal = (words: string[]) => words.map((w) => w[0].toUpperCase() + w.slice(1)).join("");

/** `api-keys` -> `ApiKey`, `addresses` -> `Address`, `categories` -> `Category`. */
function singular(segment: string): string {
  const words = wordsOf(segment);
  const last = words.pop() ?? "";
  const one = last.endsWith("ies")
    ? `${last.slice(0, -3)}y`
    : /(ss|x|ch|sh)es$/.test(last)
    ? last.slice(0, -2)
    : /[^s]s$/.test(last)
    ? last.slice(0, -1)
    : last;
  return pascal([...words, one]);
}

/**
 * The derived name: `GET /orders` (a collection: some path goes on with `/{id}`) is
 * `listOrders`, `POST /orders` `createOrder`; `GET|PATCH|DELETE /orders/{id}` are
 * `getOrder|updateOrder|deleteOrder`; an action on an item, `POST /webhook-subscriptions/{id}/
 * rotate-secret`, is `rotateWebhookSubscriptionSecret` (`GET` of a sub-list: `getBotLogs`);
 * any other `GET` is `get<Segment>` (`getMe`), and any other `POST` is named by its last
 * segment (`POST /auth/register` is `register`).
 */
export function deriveOperationId(method: string, path: string, paths: readonly string[]): string {
  const segments = path.split("/").filter(Boolean).slice(path.startsWith("/api") ? 1 : 0);
  const last = segments.at(-1) ?? "api";
  const literals = segments.filter((s) => !isParam(s));
  if (isParam(last)) return ITEM_VERBS[method] + singular(literals.at(-1) ?? "item");
  if (segments.length > 1 && isParam(segments.at(-2)!)) {
    const noun = singular(literals.at(-2) ?? "item");
    const [verb, ...rest] = wordsOf(last);
    if (method === "get") return `get${noun}${pascal([verb, ...rest])}`;
    return `${verb}${noun}${pascal(rest)}`;
  }
  const words = wordsOf(last);
  if (paths.some((p) => p.startsWith(`${path}/{`))) {
    if (method === "get") return `list${pascal(words)}`;
    if (method === "post") return `create${singular(last)}`;
    return `${ITEM_VERBS[method]}${pascal(words)}`;
  }
  if (method === "post") return words[0] + pascal(words.slice(1));
  return ITEM_VERBS[method] + pascal(words);
}

/** The operation's name: its override, else the derived one. */
export function operationIdOf(method: string, path: string, paths: readonly string[]): string {
  return OPERATION_ID_OVERRIDES[`${method.toUpperCase()} ${path}`] ??
    deriveOperationId(method, path, paths);
}
