import { z } from "@hono/zod-openapi";
import {
  EDITABLE_FIELDS,
  normaliseOrderNumber,
  type Order,
  ORDER_SOURCES,
  ORDER_STATUSES,
} from "../../domain/orders/order.ts";
import { isWebUrl, WEB_URL_MAX } from "../../domain/orders/web_url.ts";
import { lenientQueryParam, pageSchema, PagingQuery } from "../../http/paging.ts";
import type { Same } from "../../lib/types.ts";

export const OrderStatusSchema = z.enum(ORDER_STATUSES).openapi("OrderStatus", {
  description: "Order status. See docs/orders.md for the moves messages and edits make.",
});

const text = (max: number) => z.string().trim().min(1, "must not be empty").max(max);
const cents = z.number().int().min(0).openapi({ description: "Integer cents, >= 0" });
const calendarDate = z.iso.date().openapi({ description: "Calendar date, YYYY-MM-DD" });
const timestamp = z.string().openapi({ description: "ISO 8601 UTC, millisecond precision" });

/** Any ISO 8601 date-time with a zone; stored as UTC with milliseconds. */
const receivedAt = z.iso.datetime({ offset: true })
  .transform((v) => new Date(v).toISOString())
  .openapi({
    description: "When the order was received: ISO 8601 with `Z` or an offset; defaults to now",
    example: "2025-03-01T12:00:00.000Z",
  });

const orderNumber = text(200)
  .refine((v) => normaliseOrderNumber(v) !== "", "must not be empty")
  .openapi({
    description: "Matching ignores surrounding spaces, case and a leading `#`",
    example: "#112-5550123",
  });

/** An absolute http(s) URL: the rule intake keeps links by too (`isWebUrl`). */
const httpUrl = z.string().refine(isWebUrl, "must be an http(s) URL of at most 2000 characters")
  .openapi({ format: "uri", maxLength: WEB_URL_MAX });

/** The fields a create and a PATCH share. */
const fieldShape = {
  itemSummary: text(2000).openapi({ example: "USB-C cable, 2 m" }),
  orderNumber,
  store: text(200).openapi({ example: "Example Store" }),
  trackingNumber: text(200).openapi({ example: "1Z999AA10123456784" }),
  carrier: text(100).openapi({ example: "ups" }),
  total: text(100).openapi({ description: "Display money, copied as given", example: "$12.99" }),
  price: text(100).openapi({ description: "Display money, copied as given", example: "$12.99" }),
  costCents: cents,
  salePriceCents: cents,
  receivedAt,
  estimatedDelivery: calendarDate,
  actualDelivery: calendarDate,
  status: OrderStatusSchema,
  imageUrl: httpUrl.openapi({
    description: "Product image URL",
    example: "https://shop.example/p.jpg",
  }),
  size: text(40).openapi({ example: "US 10" }),
  quantity: z.number().int().min(1).max(100_000).openapi({ description: "Integer >= 1" }),
  trackingUrl: httpUrl.openapi({
    description: "The carrier's tracking page",
    example: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
  }),
};

export const OrderSchema = z.object({
  id: z.string().openapi({ example: "ord_01jq4w5v2x8c9d0e1f2g3h4j5k" }),
  status: OrderStatusSchema,
  itemSummary: z.string(),
  orderNumber: z.string().optional(),
  store: z.string().optional(),
  trackingNumber: z.string().optional(),
  carrier: z.string().optional(),
  total: z.string().optional(),
  price: z.string().optional(),
  costCents: z.number().int().optional(),
  salePriceCents: z.number().int().optional(),
  receivedAt: timestamp,
  estimatedDelivery: z.string().optional().openapi({ description: "YYYY-MM-DD" }),
  actualDelivery: z.string().optional().openapi({ description: "YYYY-MM-DD" }),
  imageUrl: z.string().optional(),
  size: z.string().optional(),
  quantity: z.number().int().optional(),
  trackingUrl: z.string().optional(),
  sourceId: z.string().optional().openapi({
    description: "The email source (`email_`) or bot (`bot_`) the order came from; set by intake",
  }),
  userEdited: z.array(z.enum(EDITABLE_FIELDS)).openapi({
    description: "Fields set by PATCH, sorted; later messages never overwrite them",
  }),
  source: z.enum(ORDER_SOURCES).openapi({
    description: "Channel that created the order",
  }),
  shippedAt: timestamp.optional().openapi({
    description: "When the order moved to `shipped` (its `receivedAt` when it was created " +
      "shipped); set by the service, kept once it travels on, removed if it goes back to " +
      "`ordered`. The calendar's `shipped` counts these days.",
  }),
  createdAt: timestamp,
  updatedAt: timestamp,
}).openapi("Order");

// The document's order is the domain's order: any drift between the two fails to compile.
const _orderShape: Same<z.infer<typeof OrderSchema>, Order> = true;

export const CreateOrderBody = z.object(fieldShape).partial().required({ itemSummary: true })
  .openapi("CreateOrder");

export const PatchOrderBody = z.object({
  ...fieldShape,
  salePriceCents: cents.nullable().openapi({ description: "Integer cents, >= 0; null clears it" }),
}).partial().openapi("PatchOrder");

export const OrderResultSchema = z.object({
  order: OrderSchema,
  merged: z.boolean().openapi({ description: "True when an existing order number matched" }),
}).openapi("OrderResult");

export const OrderEnvelope = z.object({ order: OrderSchema }).openapi("OrderEnvelope");

export const OrderPageSchema = pageSchema(OrderSchema, "OrderPage");

export const ListOrdersQuery = PagingQuery.extend({
  status: lenientQueryParam().openapi({
    description: "One of the five statuses; an unrecognised (or repeated) value is ignored",
    example: "shipped",
  }),
  q: z.string().optional().openapi({
    description: "Case-insensitive text in the order number, item summary, store, tracking " +
      "number or size (trimmed; any part of it: `ettl` finds Kettle, `sk lamp` finds Desk lamp). " +
      "A leading `#` also finds it in the order number without the `#`",
  }),
  from: calendarDate.optional().openapi({
    description: "Received on or after this date (YYYY-MM-DD, the account's timezone)",
  }),
  to: calendarDate.optional().openapi({
    description: "Received on or before this date (YYYY-MM-DD, the account's timezone)",
  }),
});
