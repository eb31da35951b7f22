/**
 * `deno run -A scripts/legacy_fixture.ts <kv file>`: a KV file as the release of 2026-11-21
 * (ef26fad, 0.1.0, before the data layout was versioned) stored its data, for the upgrade
 * test (tests/store/upgrade_test.ts) and for trying an upgrade by hand. The keys are spelled
 * here as that release's src/store/keys.ts spelled them (`git show ef26fad:src/store/keys.ts`),
 * not through today's keys.ts, so a later change of today's layout cannot change the fixture.
 *
 * What that release did not have, and today's code expects: no tracking-number index
 * (`order_by_tracking`), no leaderboard list (`["leaderboard", u]`), no `shippedAt` on shipped
 * orders, no `insights` state on accounts (their sums do not exist), no layout marker.
 */
import { bucketsOf } from "../src/domain/orders/buckets.ts";
import { upsCheckDigit } from "../src/domain/tracking/check_digits.ts";
import { sha256Hex } from "../src/lib/crypto.ts";
import { hashPassword } from "../src/lib/password.ts";

export const LEGACY_PASSWORD = "legacy-password-1";
/** The orders each account has; every fifth of them has a tracking number of its own. */
export const ORDERS_PER_ACCOUNT = 192;
/** A tracking number an old order of the first account has (a shipping fixture mails it). */
export const MAILED_TRACKING = "1Z6R1Y400342782457";
/** When the first account's order shipped, as its `order.shipped` event (still in the log) says. */
export const SHIPPED_EVENT_AT = "2026-08-20T09:30:00.000Z";

export interface LegacyAccount {
  id: string;
  email: string;
  username: string;
  publicStats: boolean;
  timezone: string;
  /** A signed-in session's bearer token (64 hex characters, as 0.1.0 issued them). */
  session: string;
}

export const LEGACY_ACCOUNTS: LegacyAccount[] = [
  {
    id: "usr_legacy0alice",
    email: "alice@example.com",
    username: "alice",
    publicStats: true,
    timezone: "Europe/Berlin",
    session: "a1".repeat(32),
  },
  {
    id: "usr_legacy1bob",
    email: "bob@example.com",
    username: "bob",
    publicStats: false,
    timezone: "America/New_York",
    session: "b2".repeat(32),
  },
];

const STATUSES = ["ordered", "ordered", "shipped", "shipped", "shipped", "delivered", "delivered"];
const DAY = 86_400_000;
const FIRST_ORDER_MS = Date.parse("2026-08-01T08:00:00Z");

/** A valid UPS number, different for every (account, order). */
export function legacyTracking(account: number, i: number): string {
  const serial = `R8${account}39${String(i).padStart(10, "0")}`;
  return `1Z${serial}${upsCheckDigit(serial)}`;
}

/** The `i`th order of account `a`, as 0.1.0 stored it. */
export function legacyOrder(a: number, i: number) {
  const received = FIRST_ORDER_MS + i * 10 * 3_600_000 + a * 1_800_000;
  const status = i % 23 === 22 ? "canceled" : i % 29 === 28 ? "issue" : STATUSES[i % 7];
  const shippedOrLater = status === "shipped" || status === "delivered" || status === "issue";
  const tracking = a === 0 && i === 3
    ? MAILED_TRACKING
    : shippedOrLater && i % 5 !== 4
    ? legacyTracking(a, i)
    : undefined;
  const iso = (ms: number) => new Date(ms).toISOString();
  const updated = received + (status === "delivered" ? 5 : shippedOrLater ? 2 : 0) * DAY;
  return {
    id: `ord_legacy${a}${String(i).padStart(6, "0")}`,
    status,
    itemSummary: `Item ${i}`,
    ...(i % 6 !== 5 ? { orderNumber: `#L${a}-${1000 + i}` } : {}),
    store: ["Shop", "Supreme", "Nike"][i % 3],
    ...(tracking ? { trackingNumber: tracking, carrier: "ups" } : {}),
    costCents: 500 + (i * 7919) % 19_500,
    ...(i % 3 === 0 ? { salePriceCents: 900 + (i * 104_729) % 30_000 } : {}),
    receivedAt: iso(received),
    ...(status === "shipped" ? { estimatedDelivery: iso(received + 6 * DAY).slice(0, 10) } : {}),
    ...(status === "delivered" ? { actualDelivery: iso(received + 5 * DAY).slice(0, 10) } : {}),
    userEdited: [],
    source: i % 2 ? "email" : "manual",
    createdAt: iso(received),
    updatedAt: iso(updated),
  };
}

/** What the 0.1.0 footprint reads of an order. */
interface LegacyOrder {
  id: string;
  status: string;
  orderNumber?: string;
  costCents?: number;
  receivedAt: string;
  createdAt: string;
}

/** The 0.1.0 footprint of an order: its entries and counter amounts (orders.ts, ef26fad). */
function legacyFootprint(u: string, order: LegacyOrder) {
  const ms = Date.parse(order.receivedAt);
  const entries: [Deno.KvKey, unknown][] = [
    [["ws", u, "order", order.id], order],
    [["ws", u, "order_by_received", ms, order.id], order],
    [["ws", u, "order_by_status", order.status, ms, order.id], order],
  ];
  if (order.orderNumber) {
    const number = order.orderNumber.trim().replace(/^#/, "").trim().toLowerCase();
    entries.push([["ws", u, "order_by_number", number], order.id]);
  }
  const cost = order.costCents ?? 0;
  const counters: [Deno.KvKey, number][] = [
    [["ws", u, "count", "orders"], 1],
    [["stats", "orders"], 1],
    [["ws", u, "count", "orders_status", order.status], 1],
    [["ws", u, "count", "value_cents"], cost],
    [["stats", "value_cents"], cost],
    [["ws", u, "count", "orders_created", order.createdAt.slice(0, 7)], 1],
  ];
  bucketsOf(ms).forEach((bucket, level) => {
    counters.push([["ws", u, "order_bucket", "all", level, bucket], 1]);
    counters.push([["ws", u, "order_bucket", order.status, level, bucket], 1]);
  });
  return { entries, counters };
}

/**
 * Creates `order` in account `u` as the 0.1.0 binary did (a downgrade's writes): its entries
 * and counters of that release, none of what later releases added (tracking index, insight
 * sums, shippedAt).
 */
export async function writeLegacyOrder(kv: Deno.Kv, u: string, order: LegacyOrder) {
  const { entries, counters } = legacyFootprint(u, order);
  const op = kv.atomic();
  for (const [key, value] of entries) op.set(key, value);
  for (const [key, amount] of counters) if (amount) op.sum(key, BigInt(amount));
  op.set(["ws", u, "order_rev"], Date.now());
  if (!(await op.commit()).ok) throw new Error("legacy order not written");
}

/**
 * Writes the two accounts, their sessions, settings and orders into `kv` (an empty store);
 * `ordersPerAccount` other than the default for the benchmark.
 */
export async function writeLegacyStore(
  kv: Deno.Kv,
  { now = Date.now(), ordersPerAccount = ORDERS_PER_ACCOUNT } = {},
): Promise<void> {
  const passwordHash = await hashPassword(LEGACY_PASSWORD);
  const sums = new Map<string, { key: Deno.KvKey; amount: number }>();
  const sum = (key: Deno.KvKey, amount: number) => {
    const id = JSON.stringify(key);
    sums.set(id, { key, amount: (sums.get(id)?.amount ?? 0) + amount });
  };
  for (const [a, account] of LEGACY_ACCOUNTS.entries()) {
    const u = account.id;
    const createdAt = new Date(FIRST_ORDER_MS - 30 * DAY).toISOString();
    const user = {
      id: u,
      email: account.email,
      username: account.username,
      createdAt,
      publicProfile: account.publicStats,
      publicStats: account.publicStats,
      webhookHandle: `legacyhandle${a}`,
      timezone: account.timezone,
      plan: "free",
      emailVerified: true,
      passwordHash,
    };
    const hash = await sha256Hex(account.session);
    const session = {
      userId: u,
      createdAt: new Date(now).toISOString(),
      expiresAt: now + 14 * DAY,
    };
    const op = kv.atomic()
      .set(["user", u], user)
      .set(["user_by_email", account.email], u)
      .set(["user_by_username", account.username], u)
      .set(["user_by_handle", user.webhookHandle], u)
      .set(["session", hash], session, { expireIn: 14 * DAY })
      .set(["ws", u, "session", hash], session, { expireIn: 14 * DAY })
      // Saved under 0.1.0, where nothing was sent to it (CHANGELOG 0.2.0).
      .set(["ws", u, "settings"], {
        updatesWebhook: "https://hooks.example/updates",
        forwardOn: false,
        updatedAt: createdAt,
      });
    sum(["stats", "users"], 1);
    if (!(await op.commit()).ok) throw new Error("legacy account not written");
    for (let i = 0; i < ordersPerAccount; i += 20) {
      const batch = kv.atomic();
      for (let j = i; j < Math.min(i + 20, ordersPerAccount); j++) {
        const order = legacyOrder(a, j);
        const { entries, counters } = legacyFootprint(u, order);
        for (const [key, value] of entries) batch.set(key, value);
        for (const [key, amount] of counters) sum(key, amount);
      }
      batch.set(["ws", u, "order_rev"], now);
      if (!(await batch.commit()).ok) throw new Error("legacy orders not written");
    }
  }
  // The first account's third order shipped while its event log still holds the event.
  const shipped = legacyOrder(0, 2);
  const event = {
    id: "evt_legacyshipped0",
    type: "order.shipped",
    createdAt: SHIPPED_EVENT_AT,
    userId: LEGACY_ACCOUNTS[0].id,
    data: { order: shipped, source: "email" },
  };
  await kv.set(["ws", LEGACY_ACCOUNTS[0].id, "event", event.id], event, { expireIn: 7 * DAY });
  const counters = [...sums.values()].filter((c) => c.amount);
  for (let i = 0; i < counters.length; i += 500) {
    const op = kv.atomic();
    for (const { key, amount } of counters.slice(i, i + 500)) {
      op.set(key, new Deno.KvU64(BigInt(amount)));
    }
    if (!(await op.commit()).ok) throw new Error("legacy counters not written");
  }
}

if (import.meta.main) {
  const [path] = Deno.args;
  if (!path) {
    console.error("usage: deno run -A scripts/legacy_fixture.ts <new kv file>");
    Deno.exit(2);
  }
  const kv = await Deno.openKv(path);
  await writeLegacyStore(kv);
  kv.close();
  console.log(`wrote a 0.1.0 (ef26fad) store to ${path}`);
}
