/**
 * The dashboard as the server sends it: the shell at every page path under a strict CSP, the
 * assets under content-hashed URLs cached for a year, compressed copies that decode to the same
 * bytes, an import map that resolves every import of every module, and the API's JSON 404 left
 * as it was.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { testApp } from "../helpers.ts";
import { ROUTES } from "../../src/web/routes.js";
import { loadSources } from "../../src/web/sources.ts";

const SOURCES = loadSources();
import { pickEncoding } from "../../src/web/mount.ts";

async function get(
  app: { request: (p: string, i?: RequestInit) => Response | Promise<Response> },
  path: string,
  headers: Record<string, string> = {},
) {
  const res = await app.request(path, { headers });
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** The shell's import map, module scripts and links. */
function parseShell(html: string) {
  const importMap = /<script type="importmap">(.*?)<\/script>/s.exec(html)![1];
  const scripts = [...html.matchAll(/<script\b([^>]*)>(.*?)<\/script>/gs)];
  const urls = [...html.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
  return {
    importMap,
    scripts,
    urls,
    imports: JSON.parse(importMap).imports as Record<string, string>,
  };
}

Deno.test("the client's files are served, its deno.json is not; every route's screen exists", () => {
  const served = SOURCES.map((s) => s.path);
  for (const path of ["app/main.js", "app/style.css", "app/icon.svg", "app/screens/orders.js"]) {
    assert.ok(served.includes(path), path);
  }
  assert.ok(!served.some((p) => p.endsWith(".json")));
  // Every route's screen is a served module that exports it (the client imports it by name).
  for (const route of ROUTES) {
    const source = SOURCES.find((s) => s.path === `app/screens/${route.module}`);
    assert.ok(source, `${route.path}: app/screens/${route.module} is not served`);
    assert.match(
      source.text,
      new RegExp(`export (?:function|const) ${route.screen}\\b`),
      route.path,
    );
  }
});

Deno.test("every page path answers the shell under a strict CSP, never cached without a check", async () => {
  await using ctx = await testApp();
  for (const route of ROUTES) {
    const path = route.path.replace(/:\w+/g, "ord_123");
    const { res, bytes } = await get(ctx.app, path);
    assert.equal(res.status, 200, path);
    assert.equal(res.headers.get("content-type"), "text/html; charset=utf-8");
    assert.equal(res.headers.get("cache-control"), "no-cache");
    assert.equal(res.headers.get("referrer-policy"), "no-referrer");
    assert.match(decode(bytes), /^<!doctype html>/);
  }
  const { res, bytes } = await get(ctx.app, "/");
  const html = decode(bytes);
  const csp = res.headers.get("content-security-policy")!;
  const directives = Object.fromEntries(
    csp.split("; ").map((d) => {
      const [name, ...values] = d.split(" ");
      return [name, values];
    }),
  );
  assert.deepEqual(directives["default-src"], ["'none'"]);
  assert.deepEqual(directives["style-src"], ["'self'"]);
  assert.deepEqual(directives["frame-ancestors"], ["'none'"]);
  // The one inline script is the import map, allowed by its hash; no 'unsafe-inline'.
  const { importMap, scripts } = parseShell(html);
  const hash = createHash("sha256").update(importMap).digest("base64");
  assert.deepEqual(directives["script-src"], ["'self'", `'sha256-${hash}'`]);
  const inline = scripts.filter(([, attrs, body]) => body.trim() && !/\bsrc=/.test(attrs));
  assert.deepEqual(inline.map(([, attrs]) => attrs.trim()), ['type="importmap"']);
  assert.doesNotMatch(html, /\sstyle=|\son[a-z]+=/);

  // The page preloads the core and its own screen's modules, not the others.
  const preloads = (page: string) =>
    [...page.matchAll(/rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]);
  const home = preloads(html);
  assert.ok(home.some((u) => u.includes("/app/screens/orders.")), home.join(" "));
  assert.ok(home.some((u) => u.includes("/app/main.")));
  assert.ok(home.some((u) => u.includes("/vendor/preact.")));
  assert.ok(!home.some((u) => u.includes("/app/screens/webhooks.")));
  const hooks = preloads(decode((await get(ctx.app, "/webhooks/log")).bytes));
  assert.ok(hooks.some((u) => u.includes("/app/screens/webhooks.")));
  assert.ok(!hooks.some((u) => u.includes("/app/screens/orders.")));

  // A revalidation with the validator is a 304 with no body.
  const again = await get(ctx.app, "/", { "if-none-match": res.headers.get("etag")! });
  assert.equal(again.res.status, 304);
  assert.equal(again.bytes.length, 0);
});

Deno.test("assets: hashed URLs, a year of immutable caching, brotli and gzip of the same bytes", async () => {
  await using ctx = await testApp();
  const { urls, imports } = parseShell(decode((await get(ctx.app, "/")).bytes));
  const all = new Set([...urls, ...Object.values(imports)]);
  assert.equal(all.size, SOURCES.length);
  for (const url of all) {
    const plain = await get(ctx.app, url);
    assert.equal(plain.res.status, 200, url);
    assert.equal(plain.res.headers.get("cache-control"), "public, max-age=31536000, immutable");
    assert.equal(plain.res.headers.get("content-encoding"), null);
    assert.equal(plain.res.headers.get("vary"), "Accept-Encoding");
    const hash = /\.([0-9a-f]{12})\.\w+$/.exec(url)![1];
    assert.equal(createHash("sha256").update(plain.bytes).digest("hex").slice(0, 12), hash, url);
    const br = await get(ctx.app, url, { "accept-encoding": "gzip, deflate, br, zstd" });
    assert.equal(br.res.headers.get("content-encoding"), "br");
    assert.deepEqual(new Uint8Array(brotliDecompressSync(br.bytes)), plain.bytes);
    const gz = await get(ctx.app, url, { "accept-encoding": "gzip" });
    assert.equal(gz.res.headers.get("content-encoding"), "gzip");
    assert.deepEqual(new Uint8Array(gunzipSync(gz.bytes)), plain.bytes);
  }
  const type = async (ext: string) =>
    (await get(ctx.app, [...all].find((u) => u.endsWith(ext))!)).res.headers.get("content-type");
  assert.equal(await type(".js"), "text/javascript; charset=utf-8");
  assert.equal(await type(".css"), "text/css; charset=utf-8");
  assert.equal(await type(".svg"), "image/svg+xml");
});

Deno.test("the import map resolves every import of every served module", async () => {
  await using ctx = await testApp();
  const { imports } = parseShell(decode((await get(ctx.app, "/")).bytes));
  const served = new Set(Object.values(imports));
  const unresolved: string[] = [];
  for (const [key, url] of Object.entries(imports)) {
    const code = decode((await get(ctx.app, url)).bytes);
    // Static imports and re-exports: `from "x"`, `import "x"` (minified or not).
    for (const [, spec] of code.matchAll(/(?:\bfrom|\bimport)\s*["']([@\w./-]+)["']/g)) {
      // A relative specifier resolves against the module's own (hashed) URL, then the map.
      const target = spec.startsWith(".")
        ? new URL(spec, `http://x${key.startsWith("/") ? key : url}`).pathname
        : spec;
      if (!served.has(imports[target])) unresolved.push(`${key} imports ${spec}`);
    }
  }
  assert.deepEqual(unresolved, []);
});

Deno.test("outside the pages and assets, the JSON 404 is what it was", async () => {
  await using ctx = await testApp();
  for (
    const path of [
      "/api/nope",
      "/api/orders/x/y/z",
      "/nope",
      "/orders",
      "/assets/app/main.js",
      "/assets/nope.0123456789ab.js",
    ]
  ) {
    const { res, bytes } = await get(ctx.app, path);
    assert.equal(res.status, 404, path);
    assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8", path);
    assert.deepEqual(JSON.parse(decode(bytes)), { error: "Not found" }, path);
  }
  // The API itself does not change: its document lists no dashboard path (outside /api it has
  // only the public share pages and the operator's metrics).
  const doc = JSON.parse(decode((await get(ctx.app, "/api/openapi.json")).bytes));
  assert.deepEqual(Object.keys(doc.paths).filter((p) => !p.startsWith("/api")), [
    "/s/{slug}",
    "/s/{slug}.png",
    "/metrics",
  ]);
});

Deno.test("content negotiation: brotli before gzip, q=0 refuses, none without the header", () => {
  assert.equal(pickEncoding(undefined), null);
  assert.equal(pickEncoding(""), null);
  assert.equal(pickEncoding("gzip, deflate, br"), "br");
  assert.equal(pickEncoding("gzip"), "gzip");
  assert.equal(pickEncoding("br;q=0, gzip;q=0.5"), "gzip");
  assert.equal(pickEncoding("BR"), "br");
  assert.equal(pickEncoding("*"), "br");
  assert.equal(pickEncoding("*;q=0"), null);
  assert.equal(pickEncoding("identity"), null);
  assert.equal(pickEncoding("gzip;q=0, identity"), null);
});
