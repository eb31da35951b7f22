/**
 * An imported order's cost (docs/insights.md, "Workspace currency"): the total a message printed (or the price of its
 * one item when it printed no total), as `costCents`, when
 * it is printed in the workspace currency and the message gave no cost of its own. A total in
 * another currency stays as printed: the order shows it with "cost not set".
 */
import type { Currency } from "../domain/insights/currency.ts";
import type { MessageFields } from "../domain/orders/order.ts";
import { moneyValue } from "./money.ts";

/** The amount and currency of a printed total, when it is one figure with a known currency. */
function totalAmount(total: string | undefined): { cents: number; currency: string } | null {
  if (!total) return null;
  const money = moneyValue(total);
  if (!money || !money.currency || money.cents < 0) return null;
  return { cents: money.cents, currency: money.currency };
}

/**
 * The fields with `costCents` from `total` when it is in the workspace currency. The currency is
 * asked for (a KV read) only when the message printed an amount and gave no cost.
 */
export async function withCostFromTotal<F extends MessageFields>(
  fields: F,
  currencyOf: () => Promise<Currency>,
): Promise<F> {
  if (fields.costCents !== undefined) return fields;
  // A checkout post often prints only the price of its one item: that is its total.
  const printed = fields.total ?? ((fields.quantity ?? 1) === 1 ? fields.price : undefined);
  const amount = totalAmount(printed);
  if (!amount || amount.currency !== await currencyOf()) return fields;
  return { ...fields, costCents: amount.cents };
}
