/**
 * A reader worker (src/intake/email/readers.ts): reads one message per request with
 * `readEmail`, off the thread that serves requests. Templates arrive as their stored
 * definitions and are compiled here, once per definition while it is in use.
 */
import type { CustomTemplate } from "../../domain/intake/template.ts";
import { type CompiledTemplate, compileTemplate } from "./custom.ts";
import { readEmail } from "./read.ts";

export interface ReadRequest {
  id: number;
  raw: Uint8Array;
  now: number;
  templates: CustomTemplate[];
}

/** Compiled templates by definition; the bound only matters across many workspaces. */
const compiled = new Map<string, CompiledTemplate | null>();
const COMPILED_MAX = 1000;

function compileAll(templates: CustomTemplate[]): CompiledTemplate[] {
  return templates.flatMap((t) => {
    const key = JSON.stringify(t);
    let c = compiled.get(key);
    if (c === undefined) {
      if (compiled.size >= COMPILED_MAX) compiled.clear();
      const result = compileTemplate(t);
      c = "error" in result ? null : result;
      compiled.set(key, c);
    }
    return c ? [c] : [];
  });
}

const scope = self as unknown as Worker;
scope.onmessage = async ({ data }: MessageEvent<ReadRequest>) => {
  const read = await readEmail(data.raw, {
    now: data.now,
    customTemplates: compileAll(data.templates),
  });
  scope.postMessage({ id: data.id, read });
};
