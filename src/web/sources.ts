/**
 * Every file the dashboard serves, inside the program: npm packages' ES module builds (imported
 * as text, so `deno compile` embeds them and nothing is fetched from a CDN), the page table, and
 * the client's own files under `app/`, read from that folder once per process (`deno task
 * compile` embeds it with `--include src/web/app`). `specifier` is the bare name modules import
 * (the page's import map points it at the hashed URL); relative imports resolve to
 * `/assets/<path>`, mapped likewise.
 *
 * Why `app/` is read rather than imported as text: it is a workspace member type-checked with the
 * DOM's types, and a text import of its modules from here puts them in the server's type-check
 * program too, where the DOM's stream and crypto types replace Deno's.
 */
import preact from "preact" with { type: "text" };
import preactHooks from "preact/hooks" with { type: "text" };
import htm from "htm" with { type: "text" };
import htmPreact from "htm/preact" with { type: "text" };
import openapiFetch from "openapi-fetch" with { type: "text" };
import routes from "./routes.js" with { type: "text" };

export interface Source {
  /** Under `/assets/`, before hashing: `app/main.js`, `vendor/preact.js`. */
  path: string;
  text: string;
  /** The bare specifier modules import it by, for vendor modules. */
  specifier?: string;
}

export const ENTRY = "app/main.js";
/** The one stylesheet served, joined from the parts under `app/styles/` in this order. */
export const STYLE = "app/style.css";
const STYLE_PARTS = ["base", "frame", "panels", "forms", "tables", "insights", "details"];
export const ICON = "app/icon.svg";
/** Where the screens named by `routes.js` live. */
export const SCREENS_DIR = "app/screens/";

const APP = new URL("./app/", import.meta.url);
/** What `app/` holds that is served (its deno.json is not). */
const SERVED = /\.(js|css|svg)$/;

/** Every served file of `app/`, as `app/<path>`, sorted. */
export function appFiles(dir = APP, prefix = "app/"): string[] {
  const out: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    if (entry.isDirectory) {
      out.push(...appFiles(new URL(`${entry.name}/`, dir), `${prefix}${entry.name}/`));
    } else if (SERVED.test(entry.name)) out.push(`${prefix}${entry.name}`);
  }
  return out.sort();
}

/** The vendor modules, the page table and every file of `app/`. */
export function loadSources(): Source[] {
  const files = appFiles();
  const parts = STYLE_PARTS.map((part) => `app/styles/${part}.css`);
  if (files.filter((path) => path.startsWith("app/styles/")).join() !== [...parts].sort().join()) {
    throw new Error("src/web/app/styles/ holds other files than STYLE_PARTS names");
  }
  return [
    { path: "vendor/preact.js", text: preact, specifier: "preact" },
    { path: "vendor/preact-hooks.js", text: preactHooks, specifier: "preact/hooks" },
    { path: "vendor/htm.js", text: htm, specifier: "htm" },
    { path: "vendor/htm-preact.js", text: htmPreact, specifier: "htm/preact" },
    { path: "vendor/openapi-fetch.js", text: openapiFetch, specifier: "openapi-fetch" },
    { path: "routes.js", text: routes },
    ...files.filter((path) => !path.startsWith("app/styles/")).map((path) => ({
      path,
      text: Deno.readTextFileSync(new URL(path.slice("app/".length), APP)),
    })),
    {
      path: STYLE,
      text: STYLE_PARTS.map((part) => Deno.readTextFileSync(new URL(`styles/${part}.css`, APP)))
        .join("\n"),
    },
  ];
}
