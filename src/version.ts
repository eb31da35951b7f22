import meta from "../deno.json" with { type: "json" };

/** The running deployment's version, from deno.json. */
export const VERSION: string = meta.version;
