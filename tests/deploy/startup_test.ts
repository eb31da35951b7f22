/**
 * The start-up line a person reads, and the production module graph: `deno info main.ts`
 * holds no test-only package (puppeteer-core, axe-core, the OpenAPI validator).
 */
import { equal, match, ok } from "node:assert/strict";
import { testConfig } from "../../src/config.ts";
import { configuredCarrierNames, startupLine } from "../../src/startup.ts";
import { join } from "node:path";
import { startService } from "../../scripts/service.ts";
import { testApp } from "../helpers.ts";

Deno.test("start-up line: a bare development start says what is missing", () => {
  const line = startupLine(testConfig({ PORT: "8000" }), {
    hostname: "0.0.0.0",
    port: 8000,
    carriers: [],
  });
  equal(
    line,
    "Order tracker is up: open http://localhost:8000" +
      " · links use http://localhost:8000 (set BASE_URL for links others can open)" +
      " · forwarded mail cannot arrive at @inbound.localhost (set SMTP_PORT or INBOUND_MAIL_KEY and MAIL_DOMAIN); IMAP mailboxes checked every 5 min" +
      " · outgoing mail off (SMTP_URL unset: messages go to the log)" +
      " · live tracking: no carrier credentials · data: :memory:",
  );
});

Deno.test("start-up line: a configured deployment names its receiver, domain and carriers", async () => {
  await using ctx = await testApp({
    BASE_URL: "https://orders.example.org",
    MAIL_DOMAIN: "in.example.org",
    SMTP_PORT: "2525",
    INBOUND_MAIL_KEY: "k".repeat(32),
    SMTP_URL: "smtp://mail.example.org:587",
    MAIL_FROM: "orders@example.org",
    UPS_CLIENT_ID: "id",
    UPS_CLIENT_SECRET: "secret",
    DHL_API_KEY: "key",
  });
  const config = ctx.config;
  const carriers = configuredCarrierNames(ctx.deps.carriers);
  ok(carriers.includes("UPS"), carriers.join());
  const line = startupLine(config, { hostname: "127.0.0.1", port: 9000, carriers });
  match(
    line,
    /^Order tracker is up: open http:\/\/127\.0\.0\.1:9000 · links use https:\/\/orders\.example\.org · /,
  );
  match(
    line,
    / · forwarded mail arrives at @in\.example\.org through SMTP receiver on port 2525 and mail worker \(INBOUND_MAIL_KEY\);/,
  );
  match(line, / · outgoing mail on · live tracking: UPS, DHL/);
  ok(!line.includes("secret") && !line.includes("kkkk"), "no secret in the line");
});

Deno.test("a production start loads no test-only package", async () => {
  const { stdout, success } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "main.ts"],
    cwd: new URL("../../", import.meta.url).pathname,
    stdout: "piped",
    stderr: "null",
  }).output();
  ok(success);
  const graph = JSON.parse(new TextDecoder().decode(stdout)) as {
    modules: { kind?: string; npmPackage?: string }[];
    npmPackages: Record<string, { dependencies?: string[] }>;
  };
  // The packages main.ts imports and everything they depend on.
  const reached = new Set<string>();
  const visit = (id: string) => {
    if (reached.has(id)) return;
    reached.add(id);
    for (const dep of graph.npmPackages[id]?.dependencies ?? []) visit(dep);
  };
  for (const m of graph.modules) if (m.kind === "npm" && m.npmPackage) visit(m.npmPackage);
  const names = [...reached];
  ok(names.some((p) => p.startsWith("hono@")), names.join(", "));
  for (const name of ["puppeteer-core", "axe-core", "@seriousme/openapi-schema-validator"]) {
    ok(!names.some((p) => p.startsWith(`${name}@`)), `${name} in ${names.join(", ")}`);
  }
});

Deno.test("deno.json keeps npm packages out of node_modules: a start installs nothing", async () => {
  // With "nodeModulesDir": "auto" a start installs every package of the lock file, the
  // test-only ones included; "none" reads them from Deno's cache as the graph needs them.
  const config = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)));
  equal(config.nodeModulesDir, "none");
});

Deno.test("a start on a KV restored without its secrets.key says so loudly; the line too", async () => {
  const dir = await Deno.makeTempDir({ prefix: "secrets-restore-" });
  try {
    const env = { KV_PATH: join(dir, "kv.sqlite3"), LOG_LEVEL: "info" };
    const first = await startService({ env });
    const firstExit = await first.stop("SIGTERM");
    equal(firstExit.code, 0);
    const line = firstExit.stderr.find((l) => l.startsWith("Order tracker is up: open http://"));
    ok(line, firstExit.stderr.join("\n"));
    ok(!line.includes("SECRETS KEY"), line);
    // The restore: the data file without the key file beside it.
    await Deno.remove(join(dir, "secrets.key"));
    const second = await startService({ env });
    const report = await second.stop("SIGTERM");
    const loud = report.stderr.filter((l) => l.startsWith("*** The secrets key does not open"));
    equal(loud.length, 1, report.stderr.join("\n"));
    ok(report.stderr.some((l) => l.includes("SECRETS KEY DOES NOT MATCH THIS DATA FILE")));
    ok(report.stdout.concat(report.stderr).some((l) => l.includes('"secrets key does not open')));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
