/** Recurring costs (`sub_`): a capped collection of the workspace. */
import { RECURRING_COSTS_MAX, type RecurringCost } from "../../domain/insights/recurring_costs.ts";
import type { CollectionSpec } from "./collection.ts";
import { listItems } from "./collection.ts";
import { keys } from "../keys.ts";
import type { Item, WorkspaceContext } from "../sections.ts";

export const RECURRING_COSTS: CollectionSpec<RecurringCost> = {
  items: keys.recurringCosts,
  item: keys.recurringCost,
  count: keys.recurringCostCount,
  max: RECURRING_COSTS_MAX,
};

export const listRecurringCosts = (kv: Deno.Kv, userId: string) =>
  listItems(kv, RECURRING_COSTS, userId);

/** The snapshot's and the export's `subscriptions`. */
export async function recurringCostsSection(ctx: WorkspaceContext): Promise<Item[]> {
  return await listRecurringCosts(ctx.kv, ctx.user.id) as unknown as Item[];
}
