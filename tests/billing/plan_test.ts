import { equal } from "node:assert/strict";
import { monthlyCap, usageMonth, usageResetsAt } from "../../src/domain/billing/plan.ts";

const billing = { billingEnabled: true, freePlanMonthlyOrders: 100 };
const free = { plan: "free", timezone: "America/New_York" };

Deno.test("only free accounts on a billing deployment have a cap", () => {
  equal(monthlyCap(free, billing), 100);
  equal(monthlyCap({ ...free, plan: "pro" }, billing), null);
  equal(monthlyCap(free, { ...billing, billingEnabled: false }), null);
  equal(monthlyCap(free, { ...billing, freePlanMonthlyOrders: 0 }), 0);
});

Deno.test("months are calendar months of the account's timezone", () => {
  const now = Date.parse("2025-03-01T03:00:00.000Z"); // still February in New York
  equal(usageMonth(free, now), "2025-02");
  equal(usageResetsAt(free, now), "2025-03-01T05:00:00.000Z");
  equal(usageMonth({ ...free, timezone: "UTC" }, now), "2025-03");
  equal(usageResetsAt({ ...free, timezone: "UTC" }, now), "2025-04-01T00:00:00.000Z");
  // A stored zone Intl does not know counts as UTC.
  equal(usageMonth({ ...free, timezone: "Nowhere/Land" }, now), "2025-03");
});
