/**
 * A chat post sent as multipart/form-data, as the execute-webhook endpoint it imitates accepts
 * it: the JSON body is its `payload_json` field (text or a file), else the plain `content` and
 * `username` fields.
 */
import { parseJsonSafely } from "../lib/safe_json.ts";

export type ChatFormOutcome =
  | { ok: true; body: Record<string, unknown> }
  | { ok: false; error: string };

/** The execute-webhook body a multipart post carries; a refusal names the field. */
export async function chatPostOfForm(form: Record<string, unknown>): Promise<ChatFormOutcome> {
  const payload = form.payload_json;
  if (payload === undefined) {
    const { content, username } = form;
    const body = Object.fromEntries(
      Object.entries({ content, username }).filter(([, v]) => typeof v === "string"),
    );
    return { ok: true, body };
  }
  const text = typeof payload === "string"
    ? payload
    : payload instanceof Blob
    ? await payload.text()
    : "";
  let value: unknown;
  try {
    value = parseJsonSafely(text);
  } catch {
    value = undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, error: "payload_json: must be a JSON object" };
  }
  return { ok: true, body: value as Record<string, unknown> };
}
