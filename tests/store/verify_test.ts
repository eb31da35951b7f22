/**
 * The verifier (`deno task verify`, src/store/verify.ts): a consistent store has no
 * differences; writes of the 0.1.0 binary after an upgrade (a downgrade, then an upgrade
 * again: orders without tracking index or insight sums) are found, and `--repair` makes
 * profitability equal a recount again, beside a process writing orders all the while.
 */
import { deepStrictEqual as eq, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { writeLegacyOrder, writeLegacyStore } from "../../scripts/legacy_fixture.ts";
import type { Order } from "../../src/domain/orders/order.ts";
import { keys } from "../../src/store/keys.ts";
import { migrateLayout } from "../../src/store/migrations/run.ts";
import { shippedAt } from "../../src/store/migrations/shipped_at.ts";
import { createLogger } from "../../src/lib/log.ts";
import { verifyStore } from "../../src/store/verify.ts";
import { call, signUp, testApp, type TestContext } from "../helpers.ts";

const ROOT = new URL("../../", import.meta.url);

/** Orders and spent cents as profitability answers them (from the sums). */
async function profitability(ctx: TestContext, token: string) {
  const profit = await call(ctx, "GET", "/api/profitability?range=all", { token });
  return [profit.body.orders, profit.body.spentCents] as const;
}

const recount = async (ctx: TestContext, token: string) => {
  const list = await call<{ items: Order[] }>(ctx, "GET", "/api/orders?limit=100", { token });
  const live = list.body.items.filter((o) => o.status !== "canceled");
  return [live.length, live.reduce((s, o) => s + (o.costCents ?? 0), 0)] as const;
};

Deno.test("verify: a migrated 0.1.0 store is consistent", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    await writeLegacyStore(kv);
    const log = createLogger("error");
    ok((await migrateLayout(kv, { log, now: Date.now, release: "test" })).ok);
    const report = await verifyStore(kv, { repair: false });
    eq(report.accounts.map((a) => [a.orders, a.differences.length, a.skipped]), [
      [192, 0, 0],
      [192, 0, 0],
    ]);
    eq(report.platform, []);
    eq(report.unknownKeys, {});
    // Keys no release of ours writes are counted by first part and left alone.
    await kv.set(["someone_elses", "a"], 1);
    await kv.set(["someone_elses", "b", 2], 1);
    await kv.set(["zz_other"], 1);
    await kv.set([42, "x"], 1);
    const again = await verifyStore(kv, { repair: true });
    eq(again.unknownKeys, { someone_elses: 2, zz_other: 1, "(not text)": 1 });
    equal((await kv.get(["someone_elses", "a"])).value, 1);
  } finally {
    kv.close();
  }
});

Deno.test("verify: the old binary's writes are found and --repair fixes them while orders keep coming", async () => {
  await using ctx = await testApp();
  const { user, token } = await signUp(ctx, { username: "carol" });
  const visible = { token, body: { publicProfile: true } };
  equal((await call(ctx, "POST", "/api/account/visibility", visible)).status, 200);
  const stats = { token, body: { publicStats: true } };
  equal((await call(ctx, "POST", "/api/account/public-stats", stats)).status, 200);
  const create = (body: Record<string, unknown>) =>
    call<{ order: Order }>(ctx, "POST", "/api/orders", { token, body });
  for (let i = 0; i < 5; i++) await create({ itemSummary: `new ${i}`, costCents: 1000 + i });
  eq(await profitability(ctx, token), await recount(ctx, token));

  // The 0.1.0 binary, started on this store, creates two orders its own way.
  const old = (n: number) => ({
    id: `ord_downgrade${n}`,
    status: "shipped",
    itemSummary: "old binary",
    trackingNumber: "1Z5R89390357567127",
    costCents: 5000 * n,
    receivedAt: new Date(Date.now() - n * 86_400_000).toISOString(),
    userEdited: [],
    source: "manual",
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
  });
  await writeLegacyOrder(ctx.kv, user.id, old(1));
  await writeLegacyOrder(ctx.kv, user.id, old(2));
  // And turns public stats off (its commit does not know the leaderboard list).
  const record = await ctx.kv.get<{ publicStats: boolean }>(keys.user(user.id));
  await ctx.kv.set(keys.user(user.id), { ...record.value, publicStats: false });
  const [sumsSay, ordersSay] = [await profitability(ctx, token), await recount(ctx, token)];
  ok(sumsSay[1] !== ordersSay[1], "the sums miss the old binary's orders");

  const found = await verifyStore(ctx.kv, { repair: false });
  const diffs = found.accounts[0].differences;
  const kinds = (family: string) =>
    diffs.filter((d) => String(d.key.join("/")).includes(family)).map((d) => d.kind);
  eq(kinds("order_by_tracking"), ["missing", "missing"]);
  ok(kinds("/insight/").length > 0);
  eq(diffs.filter((d) => d.key[0] === "leaderboard").map((d) => d.kind), ["stale"]);
  equal(found.accounts[0].repaired, 0);

  // Repair while another writer keeps creating orders through the app.
  let writing = true;
  let written = 0;
  const writer = (async () => {
    for (let i = 0; writing && i < 200; i++) {
      await create({ itemSummary: `w${i}`, costCents: 7 });
      written++;
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  const repaired = await verifyStore(ctx.kv, { repair: true });
  const duringRepair = written;
  writing = false;
  await writer;
  ok(duringRepair > 0, "orders were written while the repair ran");
  ok(!repaired.accounts[0].busy, "repaired beside the writer");
  ok(repaired.accounts[0].repaired >= diffs.length);
  const after = await verifyStore(ctx.kv, { repair: false });
  eq(after.accounts[0].differences, []);
  eq(after.platform, []);
  eq(await profitability(ctx, token), await recount(ctx, token));
  // The old orders are found by their tracking number again.
  const index = await Array.fromAsync(ctx.kv.list({ prefix: keys.trackingIndex(user.id) }));
  eq(index.map((e) => e.value).sort(), ["ord_downgrade1", "ord_downgrade2"]);

  // Their shippedAt is data, not a sum: the shipped-at migration dates them (here run by hand,
  // as a release's migrations are on a store that has not had them), moving the calendar's
  // maintained shipped count in the same commits.
  const dated = await migrateLayout(ctx.kv, {
    log: ctx.deps.log,
    now: Date.now,
    release: "test",
    migrations: [shippedAt],
  });
  ok(dated.ok);
  equal(dated.ran[0].counts.written, 2);
  eq((await verifyStore(ctx.kv, { repair: false })).accounts[0].differences, []);
  const calendar = await call<{ days: { shipped: number }[] }>(ctx, "GET", "/api/calendar", {
    token,
  });
  equal(calendar.body.days.reduce((n, d) => n + d.shipped, 0), 2);
});

Deno.test("deno task verify reports differences (exit 1), --repair fixes them (exit 0)", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "kv.sqlite3");
  try {
    const kv = await Deno.openKv(path);
    await writeLegacyStore(kv);
    kv.close();
    const run = async (...args: string[]) => {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["task", "-q", "verify", path, ...args],
        cwd: ROOT,
        stdout: "piped",
        stderr: "piped",
      }).output();
      const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
      return { code: out.code, lines: lines.map((l) => JSON.parse(l)) };
    };
    // Unmigrated: the tracking entries and the leaderboard entry are missing.
    const report = await run();
    equal(report.code, 1);
    const summary = report.lines.at(-1).summary;
    eq([summary.accounts, summary.orders, summary.repaired], [2, 384, 0]);
    ok(summary.differences > 150);
    const fixed = await run("--repair");
    equal(fixed.code, 0);
    equal(fixed.lines.at(-1).summary.repaired, summary.differences);
    const clean = await run();
    eq([clean.code, clean.lines.length, clean.lines[0].summary.differences], [0, 1, 0]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
