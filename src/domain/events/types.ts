/** Every event type, with CONTRACT.md's names for those the spec leaves open. */
export const EVENT_TYPES = [
  "order.created",
  "order.merged",
  "order.updated",
  "order.shipped",
  "order.delivered",
  "order.tracking_updated",
  "share.created",
] as const;

export type EventType = typeof EVENT_TYPES[number];
