/**
 * What breaks first in a compiled Deno program, checked on a running service: the dashboard's
 * files, the reader worker (an email import read by a worker), the share card's PNG (resvg's Wasm
 * and the fonts) and the API reference page with its scripts. Shared by the file-set test and
 * the compiled binary's smoke test (scripts/compile_smoke.ts).
 */
import assert from "node:assert/strict";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

async function json<T>(res: Response, status: number): Promise<T> {
  const body = await res.text();
  assert.equal(res.status, status, body);
  return JSON.parse(body) as T;
}

/** Runs every check against the service at `base` (a fresh KV: its first account is created). */
export async function checkService(base: string, mail: string): Promise<void> {
  const send = (path: string, token: string | null, body?: unknown) =>
    fetch(`${base}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const { token } = await json<{ token: string }>(
    await send("/api/auth/register", null, {
      email: "binary@example.com",
      password: "correct horse battery staple",
    }),
    201,
  );

  // The dashboard: the page shell, and its entry module at the hashed URL the shell names.
  const shell = await send("/", null);
  assert.equal(shell.status, 200);
  assert.match(shell.headers.get("content-type") ?? "", /^text\/html/);
  const page = await shell.text();
  const entry = page.match(/"(\/assets\/app\/main\.[0-9a-f]+\.js)"/)?.[1];
  assert.ok(entry, "the shell names the dashboard's entry module");
  const script = await send(entry, null);
  assert.equal(script.status, 200);
  assert.match(await script.text(), /import/);

  // The reader worker reads an email import: the order is made, by a worker.
  const imported = await json<{ ok: boolean; merged: boolean; orderId: string }>(
    await send("/api/email/import", token, { raw: mail }),
    202,
  );
  assert.deepEqual([imported.ok, imported.merged], [true, false]);
  await json(await send(`/api/orders/${imported.orderId}`, token), 200);
  const status = await json<{ emailReaders: { configured: number; running: number } }>(
    await send("/api/operator/status", token),
    200,
  );
  assert.deepEqual(status.emailReaders.running, 1, "a reader worker ran");

  // A share card's PNG: resvg's Wasm and the fonts, read from the npm packages.
  const { share } = await json<{ share: { slug: string } }>(
    await send("/api/shares", token, { kind: "profit", range: "all" }),
    201,
  );
  const png = await send(`/s/${share.slug}.png`, null);
  assert.equal(png.status, 200);
  assert.equal(png.headers.get("content-type"), "image/png");
  const bytes = new Uint8Array(await png.arrayBuffer());
  assert.deepEqual([...bytes.slice(0, 8)], PNG_SIGNATURE);
  assert.ok(bytes.length > 5000, `a real card (${bytes.length} bytes)`);

  // The API reference page and its bundled script.
  const reference = await send("/api", null);
  assert.equal(reference.status, 200);
  assert.match(await reference.text(), /swagger-ui-bundle\.js/);
  const bundle = await send("/api/reference/swagger-ui-bundle.js", null);
  assert.equal(bundle.status, 200);
  assert.ok((await bundle.text()).length > 100_000);
}
