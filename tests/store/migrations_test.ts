/**
 * The migration runner on stores built by scripts/legacy_fixture.ts: a migration interrupted
 * mid-way resumes from its saved cursor, a second run changes nothing, records of unknown
 * shape are skipped, logged and counted, a newer or unreadable layout marker is refused with
 * nothing written, and of two runners on one file exactly one migrates.
 */
import { deepStrictEqual as eq, equal, ok } from "node:assert/strict";
import {
  LEGACY_ACCOUNTS,
  legacyOrder,
  ORDERS_PER_ACCOUNT,
  writeLegacyStore,
} from "../../scripts/legacy_fixture.ts";
import { type Order } from "../../src/domain/orders/order.ts";
import { createLogger } from "../../src/lib/log.ts";
import { rewriteOrder } from "../../src/store/orders/orders.ts";
import { verifyStore } from "../../src/store/verify.ts";
import { keys } from "../../src/store/keys.ts";
import { deletePrefix, readCounter } from "../../src/store/kv.ts";
import { listOrders } from "../../src/store/orders/list.ts";
import { searchText, suffixesOf, termsOfText } from "../../src/domain/orders/search_terms.ts";
import { searchIndex } from "../../src/store/migrations/search_index.ts";
import { withKvConnectLimits } from "./kv_connect_limits.ts";
import { LAYOUT_VERSION, MIGRATIONS } from "../../src/store/migrations/index.ts";
import { type LayoutOptions, migrateLayout } from "../../src/store/migrations/run.ts";
import type { Migration } from "../../src/store/migrations/types.ts";

interface Store extends AsyncDisposable {
  kv: Deno.Kv;
  path: string;
  logs: () => Record<string, unknown>[];
  options: LayoutOptions;
}

async function legacyStore(): Promise<Store> {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/kv.sqlite`;
  const kv = await Deno.openKv(path);
  await writeLegacyStore(kv);
  const lines: string[] = [];
  const log = createLogger("debug", (line) => lines.push(line));
  return {
    kv,
    path,
    logs: () => lines.map((l) => JSON.parse(l)),
    options: { log, now: Date.now, release: "0.2.0-test", pollMs: 20 },
    [Symbol.asyncDispose]: async () => {
      kv.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

const count = async (kv: Deno.Kv, prefix: Deno.KvKey) =>
  (await Array.fromAsync(kv.list({ prefix }))).length;

/** Every key and value of the store but the lease, the layout marker and order-change entries. */
async function dump(kv: Deno.Kv): Promise<string[]> {
  const out: string[] = [];
  for await (const e of kv.list({ prefix: [] })) {
    if (["lease", "layout"].includes(String(e.key[0]))) continue;
    if (e.key[2] === "order_change" || e.key[2] === "order_rev") continue;
    out.push(JSON.stringify([e.key, e.value], (_, v) => typeof v === "bigint" ? String(v) : v));
  }
  return out;
}

Deno.test("a migration interrupted mid-way resumes from its cursor; the totals are those of one run", async () => {
  await using store = await legacyStore();
  let calls = 0;
  const crashing: Migration = {
    ...MIGRATIONS[0],
    batch: (ctx, cursor) => {
      if (++calls === 2) throw new Error("evicted");
      return MIGRATIONS[0].batch(ctx, cursor);
    },
  };
  const failed = await migrateLayout(store.kv, {
    ...store.options,
    migrations: [crashing, ...MIGRATIONS.slice(1)],
  });
  ok(!failed.ok);
  equal(failed.reason, "failed");
  ok(failed.message.startsWith("Migration tracking-index failed at "), failed.message);
  equal((await store.kv.get(keys.layout())).value, null);
  const saved = await store.kv.get<{ counts: Record<string, number> }>(
    keys.migrationCursor("tracking-index"),
  );
  equal(saved.value?.counts.orders, 200);

  const done = await migrateLayout(store.kv, store.options);
  ok(done.ok);
  equal(done.version, LAYOUT_VERSION);
  const tracking = done.ran[0];
  eq([tracking.id, tracking.counts.orders], ["tracking-index", 2 * ORDERS_PER_ACCOUNT]);
  const resumed = store.logs().find((l) => l.msg === "migration resumed");
  eq([resumed?.migration, resumed?.orders], ["tracking-index", 200]);
  // No progress is left behind once a migration is done.
  eq(await Array.fromAsync(store.kv.list({ prefix: keys.migrationCursors() })), []);
});

Deno.test("running the migrations again on migrated data changes nothing", async () => {
  await using store = await legacyStore();
  ok((await migrateLayout(store.kv, store.options)).ok);
  const before = await dump(store.kv);
  // As if the marker had been lost: every migration runs again from the start.
  await store.kv.delete(keys.layout());
  const again = await migrateLayout(store.kv, store.options);
  ok(again.ok);
  eq(again.ran.map((m) => [m.id, m.counts.added ?? m.counts.written]), [
    ["tracking-index", 0],
    ["leaderboard-members", 0],
    ["shipped-at", 0],
    ["search-index", 0],
  ]);
  eq(await dump(store.kv), before);
});

Deno.test("unknown keys and corrupt or truncated records are skipped, logged and counted", async () => {
  await using store = await legacyStore();
  const alice = LEGACY_ACCOUNTS[0].id;
  await store.kv.set(keys.order(alice, "ord_truncated"), '{"id":"ord_trunc');
  await store.kv.set(keys.order(alice, "ord_noreceived"), {
    id: "ord_noreceived",
    status: "shipped",
    userEdited: [],
  });
  await store.kv.set([...keys.order(alice, "ord_x"), "extra"], 1);
  await store.kv.set(keys.order(alice, "ord_badcost"), {
    ...(await store.kv.get<Record<string, unknown>>(keys.order(alice, "ord_legacy0000002"))).value,
    id: "ord_badcost",
    costCents: "12.50",
  });
  await store.kv.set(keys.user("usr_broken"), { id: "usr_broken" });
  await store.kv.set(["someone_elses", "key"], "left alone");

  const outcome = await migrateLayout(store.kv, store.options);
  ok(outcome.ok);
  eq(outcome.ran.map((m) => [m.id, m.counts.skipped]), [
    ["tracking-index", 4],
    ["leaderboard-members", 1],
    ["shipped-at", 4],
    ["search-index", 4],
  ]);
  equal(outcome.ran[0].counts.orders, 2 * ORDERS_PER_ACCOUNT);
  const skipped = store.logs().filter((l) => l.msg === "migration skipped a record");
  eq(
    skipped.filter((l) => l.migration === "tracking-index").map((l) => l.why).sort(),
    [
      "order record has a costCents that is not a whole number",
      "order record is not an object",
      "order record lacks receivedAt or updatedAt",
      "unknown key under order",
    ],
  );
  equal(
    skipped.find((l) => l.migration === "leaderboard-members")?.why,
    "account record lacks email or timezone",
  );
  equal((await store.kv.get(["someone_elses", "key"])).value, "left alone");
});

Deno.test("orders edited while the migrations run keep both the edit and the migration's change", async () => {
  await using store = await legacyStore();
  const alice = LEGACY_ACCOUNTS[0].id;
  // Another process (an old instance of a rolling restart) edits orders as fast as it can.
  const other = await Deno.openKv(store.path);
  let editing = true;
  const last = new Map<string, string>();
  const editor = (async () => {
    for (let i = 0; editing; i = (i + 7) % ORDERS_PER_ACCOUNT) {
      const id = legacyOrder(0, i).id;
      const name = `edited ${last.size} ${i}`;
      await rewriteOrder(store.kv, alice, id, (o) => ({ ...o, store: name }));
      last.set(id, name);
    }
  })();
  const outcome = await migrateLayout(store.kv, store.options);
  editing = false;
  await editor;
  other.close();
  ok(outcome.ok);
  const counts = outcome.ran.map((m) => m.counts);
  ok(last.size >= 10, `${last.size} orders edited`);
  // Every shipped order has shippedAt, and the last edit of each order stands.
  for (let i = 0; i < ORDERS_PER_ACCOUNT; i++) {
    const id = legacyOrder(0, i).id;
    const order = (await store.kv.get<Order>(keys.order(alice, id))).value!;
    if (order.status === "shipped" || order.status === "delivered") {
      ok(order.shippedAt, `${id} ${JSON.stringify(order)} ${JSON.stringify(counts)}`);
    }
    if (last.has(id)) equal(order.store, last.get(id), id);
  }
  ok(counts.some((c) => c.conflicts), JSON.stringify(counts));
  const report = await verifyStore(store.kv, { repair: false });
  eq(report.accounts.map((a) => a.differences), [[], []]);
});

Deno.test("a newer layout version is refused, naming both versions, with nothing written", async () => {
  await using store = await legacyStore();
  const marker = {
    version: LAYOUT_VERSION + 1,
    migrations: [...MIGRATIONS.map((m) => m.id), "from-the-future"],
    release: "9.9.9",
    at: "2027-01-01T00:00:00.000Z",
  };
  await store.kv.set(keys.layout(), marker);
  const before = await dump(store.kv);
  const outcome = await migrateLayout(store.kv, store.options);
  ok(!outcome.ok);
  equal(outcome.reason, "newer");
  equal(
    outcome.message,
    `The data is at layout version ${LAYOUT_VERSION + 1} (written by release 9.9.9), newer ` +
      `than this release 0.2.0-test knows (layout version ${LAYOUT_VERSION}); refusing to ` +
      "start so nothing is written in the older layout. Run release 9.9.9 or newer again, or " +
      "restore the backup taken before the upgrade (docs/deploy.md, Upgrading) to run this one.",
  );
  eq((await store.kv.get(keys.layout())).value, marker);
  eq(await dump(store.kv), before);

  // A marker of the same version from another list of migrations is refused too.
  await store.kv.set(keys.layout(), { ...marker, version: 1, migrations: ["not-ours"] });
  const foreign = await migrateLayout(store.kv, store.options);
  equal(foreign.ok ? null : foreign.reason, "newer");
  // And one that is not a marker at all.
  await store.kv.set(keys.layout(), "3");
  const unreadable = await migrateLayout(store.kv, store.options);
  ok(!unreadable.ok);
  equal(unreadable.reason, "unreadable");
  ok(unreadable.message.includes("restore the backup taken before the upgrade"));
  eq(await dump(store.kv), before);
});

Deno.test("of two runners on one file, exactly one migrates and the other waits for it", async () => {
  await using store = await legacyStore();
  const other = await Deno.openKv(store.path);
  try {
    const [a, b] = await Promise.all([
      migrateLayout(store.kv, store.options),
      migrateLayout(other, store.options),
    ]);
    ok(a.ok && b.ok);
    eq([a.version, b.version], [LAYOUT_VERSION, LAYOUT_VERSION]);
    eq([a.ran.length, b.ran.length].sort(), [0, LAYOUT_VERSION]);
    equal(store.logs().filter((l) => l.msg === "migration started").length, LAYOUT_VERSION);
    ok(
      store.logs().some((l) => l.msg === "waiting for another instance to migrate the data layout"),
    );
  } finally {
    other.close();
  }
});

Deno.test("the migrations and a verify --repair stay within KV Connect's limits", async () => {
  await using store = await legacyStore();
  // Long orders (8 KB each): fifty of them with their copies would pass KV Connect's 800 KiB.
  const alice = LEGACY_ACCOUNTS[0].id;
  for (let i = 0; i < ORDERS_PER_ACCOUNT; i++) {
    const order = { ...legacyOrder(0, i), itemSummary: "x".repeat(8000) };
    const ms = Date.parse(order.receivedAt);
    await store.kv.atomic()
      .set(keys.order(alice, order.id), order)
      .set(keys.orderByReceived(alice, ms, order.id), order)
      .set(keys.orderByStatus(alice, order.status, ms, order.id), order)
      .commit();
  }
  const limited = withKvConnectLimits(store.kv);
  const outcome = await migrateLayout(limited.kv, store.options);
  ok(outcome.ok);
  // Undo what the migrations did to one account, for the repair to redo.
  await deletePrefix(store.kv, keys.trackingIndex(alice));
  await deletePrefix(store.kv, keys.ordersByReceived(alice));
  const repaired = await verifyStore(limited.kv, { repair: true });
  ok(repaired.accounts[0].repaired > 50);
  eq(limited.refused, []);
  ok(limited.largest.bytes > 300_000, JSON.stringify(limited.largest));
  eq((await verifyStore(store.kv, { repair: false })).accounts.map((a) => a.differences), [[], []]);
});

Deno.test("search-index: every order gets its postings and counts once, its words their vocabulary, and q finds it", async () => {
  await using store = await legacyStore();
  const alice = LEGACY_ACCOUNTS[0].id;
  ok((await migrateLayout(store.kv, store.options)).ok);
  // Every order's terms are posted once and counted once; each word has its suffixes.
  let postings = 0;
  const counts = new Map<string, number>();
  const vocabulary = new Set<string>();
  for (let i = 0; i < ORDERS_PER_ACCOUNT; i++) {
    const order = (await store.kv.get<Order>(keys.order(alice, legacyOrder(0, i).id))).value!;
    const { terms, words } = termsOfText(searchText(order));
    for (const term of terms) {
      postings++;
      counts.set(term, (counts.get(term) ?? 0) + 1);
    }
    for (const w of words) for (const s of suffixesOf(w)) vocabulary.add(JSON.stringify([s, w]));
  }
  equal(await count(store.kv, keys.searchPostings(alice)), postings);
  for (const [term, n] of counts) {
    equal(await readCounter(store.kv, keys.searchCount(alice, term)), n, term);
  }
  const stored = await Array.fromAsync(store.kv.list({ prefix: keys.searchVocabulary(alice) }));
  eq(new Set(stored.map((e) => JSON.stringify(e.key.slice(-2)))), vocabulary);
  const number = legacyOrder(0, 1).orderNumber!;
  for (const q of [number.toLowerCase(), "0-1001"]) {
    const found = await listOrders(store.kv, alice, { q }, { limit: 5, offset: 0 });
    eq([found.total, found.items.map((o) => o.id)], [1, [legacyOrder(0, 1).id]], q);
  }

  // Indexes lost for one account: the migration run again restores exactly them.
  await deletePrefix(store.kv, keys.searchPostings(alice));
  await deletePrefix(store.kv, keys.searchCounts(alice));
  await store.kv.delete(keys.layout());
  const again = await migrateLayout(store.kv, store.options);
  ok(again.ok);
  eq(again.ran.find((m) => m.id === searchIndex.id)?.counts.added, ORDERS_PER_ACCOUNT);
  eq((await verifyStore(store.kv, { repair: false })).accounts.map((a) => a.differences), [
    [],
    [],
  ]);
});
