/**
 * The dashboard as served: every source under a content-hashed URL, the page shell that loads
 * them (an import map, covered by a CSP hash, points bare and relative specifiers at the hashed
 * URLs), the Content-Security-Policy, and gzip and brotli copies made once per process.
 */
import { createHash } from "node:crypto";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { posix } from "node:path";
import { ENTRY, ICON, loadSources, SCREENS_DIR, type Source, STYLE } from "./sources.ts";

export type Encoding = "br" | "gzip";

export interface Asset {
  /** `/assets/app/main.3f9a0c1b2d4e.js` */
  url: string;
  contentType: string;
  body: Uint8Array;
  /** Strong validator: the content hash. */
  etag: string;
  /** The body compressed, made on first use (or by `precompress`) and kept. */
  encoded(encoding: Encoding): Uint8Array;
}

export interface Bundle {
  /** By hashed URL. */
  assets: ReadonlyMap<string, Asset>;
  /**
   * The HTML a page answers with: it preloads the core modules and those of the page's screen
   * (`orders.js`), so the first screen needs no second round of requests.
   */
  shell(screenModule: string): Asset;
  /** The policy the shell is served under. */
  csp: string;
}

const TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  svg: "image/svg+xml",
  html: "text/html; charset=utf-8",
};

const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data);

function asset(url: string, text: string): Asset {
  const body = new TextEncoder().encode(text);
  const ext = url.slice(url.lastIndexOf(".") + 1);
  const cache = new Map<Encoding, Uint8Array>();
  return {
    url,
    contentType: TYPES[ext] ?? "application/octet-stream",
    body,
    // Weak: the gzip and brotli copies share it with the plain bytes.
    etag: `W/"${sha256(body).digest("base64url").slice(0, 22)}"`,
    encoded(encoding) {
      let out = cache.get(encoding);
      if (!out) {
        out = encoding === "br"
          ? brotliCompressSync(body, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: 11,
              [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          })
          : gzipSync(body, { level: 9 });
        cache.set(encoding, out);
      }
      return out;
    },
  };
}

/** `app/main.js` -> `/assets/app/main.<12 hex of its SHA-256>.js`. */
function hashedUrl(source: Source, text: string): string {
  const dot = source.path.lastIndexOf(".");
  const hash = sha256(text).digest("hex").slice(0, 12);
  return `/assets/${source.path.slice(0, dot)}.${hash}${source.path.slice(dot)}`;
}

/** Source maps are not shipped; their comments would only make DevTools ask for them. */
const withoutSourceMap = (text: string) => text.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n");

const escapeHtml = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

function shellHtml(importMap: string, urls: Map<string, string>, modules: string[]): string {
  const preload = modules.map((path) =>
    `<link rel="modulepreload" href="${escapeHtml(urls.get(path)!)}">`
  );
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Order tracker</title>
<link rel="icon" href="${urls.get(ICON)}" type="image/svg+xml">
<link rel="stylesheet" href="${urls.get(STYLE)}">
<script type="importmap">${importMap}</script>
${preload.join("\n")}
<script type="module" src="${urls.get(ENTRY)}"></script>
</head>
<body>
<div id="app"><p class="boot" role="status">Loading the dashboard…</p></div>
<noscript><p class="boot">The dashboard needs JavaScript. The API is at <a href="/api">/api</a>.</p></noscript>
</body>
</html>
`;
}

/** A module's static imports (not `import()`), as source paths. */
function staticImports(source: Source, bySpecifier: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [, spec] of source.text.matchAll(/(?:\bfrom|^import)\s*["']([@\w./-]+)["']/gm)) {
    const path = spec.startsWith(".")
      ? posix.normalize(posix.join(posix.dirname(source.path), spec))
      : bySpecifier.get(spec);
    if (path) out.push(path);
  }
  return out;
}

/** `roots` and every module they import, directly or not, in a stable order. */
function closure(roots: string[], graph: Map<string, string[]>): string[] {
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path) || !graph.has(path)) return;
    seen.add(path);
    graph.get(path)!.forEach(visit);
  };
  roots.forEach(visit);
  return [...seen];
}

/**
 * Only this service's own files run: no inline script but the import map, allowed by its hash;
 * no inline styles; the API on the same origin; nothing may frame the page.
 */
function policy(importMapHash: string): string {
  return [
    "default-src 'none'",
    `script-src 'self' 'sha256-${importMapHash}'`,
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Hashes every source and works out the module graph; shells and compression come on use. */
export function buildBundle(sources: readonly Source[] = loadSources()): Bundle {
  const assets = new Map<string, Asset>();
  const urls = new Map<string, string>();
  const imports: Record<string, string> = {};
  const bySpecifier = new Map<string, string>();
  for (const source of sources) {
    const text = withoutSourceMap(source.text);
    const url = hashedUrl(source, text);
    assets.set(url, asset(url, text));
    urls.set(source.path, url);
    if (!source.path.endsWith(".js")) continue;
    imports[source.specifier ?? `/assets/${source.path}`] = url;
    if (source.specifier) bySpecifier.set(source.specifier, source.path);
  }
  const graph = new Map(
    sources.filter((s) => s.path.endsWith(".js")).map((
      s,
    ) => [s.path, staticImports(s, bySpecifier)]),
  );
  const importMap = JSON.stringify({ imports });
  const shells = new Map<string, Asset>();
  return {
    assets,
    shell(screenModule) {
      let shell = shells.get(screenModule);
      if (!shell) {
        const modules = closure([ENTRY, `${SCREENS_DIR}${screenModule}`], graph);
        shell = asset("/index.html", shellHtml(importMap, urls, modules));
        shells.set(screenModule, shell);
      }
      return shell;
    },
    csp: policy(sha256(importMap).digest("base64")),
  };
}

/** Makes every compressed copy now, so no request waits for brotli. */
export function precompress(bundle: Bundle): void {
  for (const a of bundle.assets.values()) {
    a.encoded("br");
    a.encoded("gzip");
  }
}

let built: Bundle | undefined;

/** The process's bundle, built on first use: the sources are fixed at compile time. */
export function dashboardBundle(): Bundle {
  return built ??= buildBundle();
}
