/**
 * A custom email template as it is stored and sent to a reader (CONTRACT "Templates"): the
 * shape only; compiling and matching it is the email reader's (`intake/email/custom.ts`).
 */

export const CUSTOM_FIELDS = [
  "orderNumber",
  "itemSummary",
  "store",
  "total",
  "price",
  "trackingNumber",
  "carrier",
  "estimatedDelivery",
  "size",
  "quantity",
  "imageUrl",
] as const;
export type CustomField = typeof CUSTOM_FIELDS[number];

export const CUSTOM_STATUSES = ["ordered", "shipped", "delivered", "canceled"] as const;
export type CustomStatus = typeof CUSTOM_STATUSES[number];

/** What a learned template was learned from (CONTRACT "Learning from corrections"). */
export interface LearnedFrom {
  orderId: string;
  field: string;
  at: string;
}

export interface CustomTemplate {
  id: string;
  match: { from?: string; subject?: string };
  fields: Partial<Record<CustomField, string>>;
  status?: CustomStatus;
  /** Set on a template the service learned from a correction. */
  learned?: LearnedFrom;
}
