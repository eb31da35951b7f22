/**
 * Scoring a reading against a fixture's expectation (tests/fixtures/email/README.md): the
 * per-fixture test and `scripts/intake_accuracy.ts` share these rules. Strings compare after
 * U+00A0/U+202F become spaces; `store` ignores case; `status` is what the reading's fields and
 * signals make of a new order.
 */
import { newOrder, type OrderStatus } from "../../domain/orders/order.ts";
import { plainSpaces } from "../text.ts";
import type { EmailReading } from "./read.ts";

export interface Expectation {
  status: OrderStatus;
  realSender: string;
  fields: Record<string, string | number>;
}

export interface FieldResult {
  field: string;
  expected: string | number;
  actual?: string | number;
  ok: boolean;
}

export interface Score {
  /** Expected an order, got one. */
  order: boolean;
  /** A non-order mail read as an order. */
  falseOrder: boolean;
  /** An order mail not read as an order. */
  missed: boolean;
  fields: FieldResult[];
  /** Fields the reading set that the expectation does not state. */
  extra: string[];
}

export const SCORED_FIELDS = [
  "status",
  "realSender",
  "orderNumber",
  "itemSummary",
  "store",
  "total",
  "price",
  "size",
  "quantity",
  "trackingNumber",
  "carrier",
  "trackingUrl",
  "estimatedDelivery",
  "imageUrl",
] as const;

function same(field: string, expected: string | number, actual: unknown): boolean {
  if (actual === undefined) return false;
  if (typeof expected === "number") return actual === expected;
  const a = plainSpaces(String(actual)).trim();
  const e = plainSpaces(expected).trim();
  return field === "store" || field === "realSender"
    ? a.toLowerCase() === e.toLowerCase()
    : a === e;
}

/** The status a new order made from this reading would have. */
export function readingStatus(result: EmailReading): OrderStatus | undefined {
  const { reading } = result;
  if (reading.kind !== "order") return undefined;
  return newOrder("o", reading.fields, reading.signals, "email", 0).status;
}

export function scoreReading(result: EmailReading, expect: Expectation | null): Score {
  const isOrder = result.reading.kind === "order";
  if (expect === null) {
    return { order: false, falseOrder: isOrder, missed: false, fields: [], extra: [] };
  }
  const actual: Record<string, unknown> = result.reading.kind === "order"
    ? { ...result.reading.fields, status: readingStatus(result), realSender: result.realSender }
    : { realSender: result.realSender };
  const expected: Record<string, string | number> = {
    status: expect.status,
    realSender: expect.realSender,
    ...expect.fields,
  };
  const fields = Object.entries(expected).map(([field, value]) => ({
    field,
    expected: value,
    actual: actual[field] as string | number | undefined,
    ok: isOrder && same(field, value, actual[field]),
  }));
  const extra = isOrder
    ? SCORED_FIELDS.filter((f) =>
      expected[f] === undefined && actual[f] !== undefined && f !== "itemSummary"
    )
    : [];
  return { order: isOrder, falseOrder: false, missed: !isOrder, fields, extra };
}
