/**
 * Reader workers (`EMAIL_READERS`): the same readings as on the serving thread, custom
 * templates included; a reading past the time limit ends as an unreadable message and its
 * worker is replaced; closing reads what no worker finished; the app imports through them.
 */
import { deepEqual, equal, match } from "node:assert/strict";
import { type CompiledTemplate, compileTemplate } from "../../../src/intake/email/custom.ts";
import { inProcessReader, ReaderPool } from "../../../src/intake/email/readers.ts";
import { createLogger } from "../../../src/lib/log.ts";
import { call, signUp, testApp } from "../../helpers.ts";

const NOW = Date.parse("2026-11-01T00:00:00Z");

async function fixtureMails(): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith(".eml")) out.push(await Deno.readFile(path));
    }
  };
  await walk("tests/fixtures/email");
  return out;
}

const template = compileTemplate({
  id: "tpl_1",
  match: { subject: "order" },
  fields: { orderNumber: "order\\s*#?\\s*([A-Z0-9-]{5,})" },
}) as CompiledTemplate;

Deno.test("reader workers read every fixture as the serving thread does", async () => {
  const logs: string[] = [];
  const pool = new ReaderPool({
    size: 2,
    timeoutMs: 30_000,
    log: createLogger("warn", (l) => logs.push(l)),
  });
  try {
    const mails = await fixtureMails();
    equal(mails.length > 50, true);
    // All at once: two workers, the rest waiting their turn.
    const viaWorkers = await Promise.all(mails.map((raw) => pool.read(raw, NOW, [template])));
    for (const [i, raw] of mails.entries()) {
      deepEqual(viaWorkers[i], await inProcessReader.read(raw, NOW, [template]));
    }
    deepEqual(logs, []);
  } finally {
    pool.close();
  }
});

Deno.test("a reading past the limit is unreadable, and its worker is replaced", async () => {
  const logs: string[] = [];
  // 1 ms: a new worker cannot even load its modules in time.
  const pool = new ReaderPool({
    size: 1,
    timeoutMs: 1,
    log: createLogger("warn", (l) => logs.push(l)),
  });
  try {
    const [raw] = await fixtureMails();
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(raw)));
    for (let i = 0; i < 2; i++) {
      deepEqual(await pool.read(raw, NOW), {
        reading: { kind: "unreadable", why: "unreadable: reading took longer than 1 ms" },
        facts: {},
        identity: `sha256:${digest.toHex()}`,
        template: "generic",
        signals: {},
      });
    }
    equal(logs.length, 2);
    match(logs[0], /"msg":"email reader replaced"/);
  } finally {
    pool.close();
  }
});

Deno.test("closing reads on this thread what no worker finished", async () => {
  const pool = new ReaderPool({ size: 1, timeoutMs: 30_000, log: createLogger("error", () => {}) });
  const mails = (await fixtureMails()).slice(0, 5);
  const reads = mails.map((raw) => pool.read(raw, NOW, [template]));
  pool.close();
  const done = await Promise.all(reads);
  for (const [i, raw] of mails.entries()) {
    deepEqual(done[i], await inProcessReader.read(raw, NOW, [template]));
  }
  // Closed: reads from now on are on this thread too.
  deepEqual(await pool.read(mails[0], NOW), await inProcessReader.read(mails[0], NOW));
});

Deno.test("with EMAIL_READERS=1 an import is read by the worker and stored", async () => {
  await using ctx = await testApp({ EMAIL_READERS: "1" });
  equal(ctx.deps.emailReader instanceof ReaderPool, true);
  const { token } = await signUp(ctx);
  const raw = [
    "From: Shop <orders@shop.example>",
    "To: me@example.com",
    "Subject: Your order #A1B2C3D4 is confirmed",
    "Message-ID: <pool-1@shop.example>",
    "Content-Type: text/plain; charset=utf-8",
    "",
    "Thanks for your order #A1B2C3D4.",
    "1x Desk lamp $24.99",
    "Order total: $24.99",
    "",
  ].join("\r\n");
  const first = await call(ctx, "POST", "/api/email/import", { token, body: { raw } });
  equal(first.status, 202, JSON.stringify(first.body));
  const order = await call(ctx, "GET", `/api/orders/${first.body.orderId}`, { token });
  equal((order.body.order as { orderNumber: string }).orderNumber, "A1B2C3D4");
  const again = await call(ctx, "POST", "/api/email/import", { token, body: { raw } });
  equal(again.status, 200);
});
