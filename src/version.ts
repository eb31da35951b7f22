import meta from "../deno.json" with { type: "json" };

/** The running deployment's version, from deno.json. */
export const VERSION: string = meta.version;

/** The project's license (deno.json, and LICENSE at the root), as the OpenAPI `info` names it. */
export const LICENSE = { name: `${meta.license} License`, identifier: meta.license };
