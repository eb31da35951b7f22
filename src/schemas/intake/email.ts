/** Request and response bodies of email sources, email intake, the inbox and templates. */
import { z } from "@hono/zod-openapi";
import { EMAIL_SOURCE_KINDS } from "../../domain/intake/email_source.ts";
import { INTAKE_OUTCOMES } from "../../domain/intake/reading.ts";
import { ORDER_STATUSES } from "../../domain/orders/order.ts";
import { CUSTOM_FIELDS, CUSTOM_STATUSES } from "../../domain/intake/template.ts";
import { lenientQueryParam } from "../../http/paging.ts";

const timestamp = z.string().openapi({ description: "ISO 8601 UTC, millisecond precision" });

export const EmailSourceSchema = z.object({
  id: z.string().openapi({ example: "email_01jq4w5v2x8c9d0e1f2g3h4j5k" }),
  kind: z.enum(EMAIL_SOURCE_KINDS),
  name: z.string(),
  allowedSenders: z.array(z.string()).openapi({
    description: "Addresses or `@domain` entries (the domain and its subdomains); empty: any",
  }),
  active: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp.optional(),
  forwardingAddress: z.string().optional().openapi({
    description: "forwarding: `<random slug>@<MAIL_DOMAIN>`",
    example: "k3j9x2m4q8w1z7c5@inbound.example.com",
  }),
  host: z.string().optional(),
  port: z.number().int().optional(),
  tls: z.boolean().optional(),
  username: z.string().optional(),
  mailbox: z.string().optional(),
  lastPolledAt: timestamp.optional(),
  lastError: z.string().optional(),
}).openapi("EmailSource");

export const EmailSourceEnvelope = z.object({ source: EmailSourceSchema }).openapi(
  "EmailSourceEnvelope",
);

const AllowedSenders = z.array(z.string().max(254)).max(200).openapi({
  description: "Addresses (`orders@shop.com`) or domains (`@shop.com`); empty or missing: any",
  example: ["orders@shop.example", "@brand.example"],
});

/** What create and PATCH share (all optional here; create checks what its kind needs). */
const sourceFields = {
  name: z.string().trim().min(1, "must not be empty").max(80),
  allowedSenders: AllowedSenders,
  active: z.boolean(),
  host: z.string().trim().min(1, "must not be empty").max(253).openapi({
    example: "imap.mail.example",
  }),
  port: z.number().int().min(1).max(65535).openapi({ description: "Default 993" }),
  tls: z.boolean().openapi({
    description: "Default true; plain IMAP only for hosts in ALLOWED_PRIVATE_ADDRESSES",
  }),
  username: z.string().min(1, "must not be empty").max(320),
  password: z.string().min(1, "must not be empty").max(1024).openapi({
    description: "Stored encrypted; never returned or exported",
  }),
  mailbox: z.string().trim().min(1, "must not be empty").max(200).openapi({
    description: "Default INBOX",
  }),
};

export const CreateEmailSourceBody = z.object({
  kind: z.enum(EMAIL_SOURCE_KINDS),
  ...sourceFields,
}).partial().required({ kind: true }).openapi("CreateEmailSource");

export const PatchEmailSourceBody = z.object(sourceFields).partial().openapi("PatchEmailSource");

/** A whole RFC 5322 message as text (the body limit of 2 MiB bounds it). */
const RawMessage = z.string().min(1, "must not be empty").openapi({
  description: "The whole RFC 5322 message (headers and body) as text",
  example: "From: Shop <orders@shop.example>\r\nSubject: Order #1001 confirmed\r\n\r\n...",
});

export const ImportBody = z.object({
  raw: RawMessage,
  sourceId: z.string().optional().openapi({
    description: "The email source whose allow-list applies",
  }),
}).openapi("EmailImport");

export const ImportedSchema = z.object({
  ok: z.literal(true),
  orderId: z.string(),
  merged: z.boolean(),
  logId: z.string(),
}).openapi("EmailImported");

export const InboundMailBody = z.object({
  to: z.string().max(320).openapi({
    description: "The forwarding address the message was sent to (`<slug>@MAIL_DOMAIN`)",
    example: "3f9a1c0b7d2e4f6a8b1c@inbound.example.com",
  }),
  raw: RawMessage,
}).openapi("InboundMail");

export const RebuildBody = z.object({
  sinceDays: z.number().int().min(1).max(365).openapi({
    description: "How many days back to read again (1 to 365)",
    example: 30,
  }),
}).openapi("EmailSourceRebuild");

export const RebuildProgressSchema = z.object({
  startedAt: z.string().openapi({ example: "2026-11-23T10:00:00.000Z" }),
  sinceDays: z.number().int(),
  read: z.number().int().openapi({ description: "Messages read again so far" }),
  stored: z.number().int().openapi({
    description: "Of those, stored now (new to the workspace, or an order at last)",
  }),
  reparsed: z.number().int().optional().openapi({
    description: "Orders re-read with today's templates (once the messages are done)",
  }),
  finishedAt: z.string().optional().openapi({ description: "Absent while it runs" }),
  error: z.string().optional().openapi({ description: "Why the mailbox could not be read" }),
}).openapi("EmailSourceRebuildProgress");

export const DuplicateSchema = z.object({
  duplicate: z.literal(true),
  logId: z.string().openapi({ description: "The log entry of this repeat" }),
}).openapi("EmailDuplicate");

export const PreviewBody = z.object({ raw: RawMessage }).openapi("EmailPreview");

export const EvidenceSchema = z.object({
  kind: z.enum(["markup", "template", "learned", "label", "table", "generic"]).openapi({
    description: "schema.org markup, a template, a learned template, a label, a table column " +
      "header, or the message's layout (a product image, a price and quantity, the subject...)",
  }),
  anchor: z.string().optional().openapi({
    description: "The label, column header or text the value was found by",
    example: "Order number",
  }),
}).openapi("FieldEvidence");

export const PreviewSchema = z.object({
  fields: z.record(z.string(), z.unknown()).openapi({ description: "The order fields read" }),
  template: z.string().openapi({
    description: "The built-in or custom template id that matched, `markup` or `generic`",
  }),
  signals: z.object({
    shipped: z.boolean().optional(),
    delivered: z.boolean().optional(),
    canceled: z.boolean().optional(),
    issue: z.boolean().optional(),
  }),
  evidence: z.record(z.string(), EvidenceSchema).openapi({
    description: "For each field read, where it came from",
  }),
}).openapi("EmailPreviewResult");

export const InboxQuery = z.object({
  sourceId: z.string().optional().openapi({ description: "Only this email source's messages" }),
  limit: lenientQueryParam().openapi({
    description: "Entries, 1 to 500 (default 200); out of range is clamped",
    example: "200",
  }),
});

export const IntakeEntrySchema = z.object({
  id: z.string().openapi({ example: "log_01jq4w5v2x8c9d0e1f2g3h4j5k" }),
  channel: z.enum(["email", "chat"]),
  sourceId: z.string().optional(),
  from: z.string().optional(),
  subject: z.string().optional(),
  messageId: z.string().optional(),
  receivedAt: timestamp,
  outcome: z.enum(INTAKE_OUTCOMES),
  orderId: z.string().optional(),
  setFields: z.array(z.string()).optional().openapi({
    description: "The order fields this message set (its provenance)",
  }),
  said: z.enum(ORDER_STATUSES).optional().openapi({
    description: "The status the message itself said (`shipped` for a shipping email), for " +
      "a message read as an order",
  }),
  sentAt: timestamp.optional().openapi({
    description: "When the message says it was sent (its Date header; for a forward, the " +
      "original's), for a message read as an order that gave one",
  }),
  itemSummary: z.string().optional(),
  store: z.string().optional(),
  why: z.string().optional().openapi({ description: "Why no order came of it" }),
  duplicateOf: z.string().optional(),
  rawSize: z.number().int().optional().openapi({ description: "Bytes of the stored message" }),
}).openapi("IntakeEntry");

export const InboxSchema = z.object({
  items: z.array(IntakeEntrySchema),
  total: z.number().int(),
}).openapi("Inbox");

const TemplateMatch = z.object({
  from: z.string().trim().max(254).optional().openapi({ description: "An address or `@domain`" }),
  subject: z.string().max(1000).optional().openapi({
    description: "A regular expression (linear-time engine: no backreferences or lookaround)",
  }),
});

const TemplateFields = z.partialRecord(z.enum(CUSTOM_FIELDS), z.string().max(1000)).openapi({
  description: "Order field -> regular expression with one capture group, matched against " +
    "the message's text",
  example: { orderNumber: "Order #(\\d+)", total: "Total:\\s*(\\S+)" },
});

export const CreateTemplateBody = z.object({
  name: z.string().trim().min(1, "must not be empty").max(120),
  match: TemplateMatch,
  fields: TemplateFields,
  status: z.enum(CUSTOM_STATUSES).optional(),
}).openapi("CreateTemplate");

export const PatchTemplateBody = CreateTemplateBody.partial().openapi("PatchTemplate");

export const TemplateSchema = z.object({
  id: z.string().openapi({ example: "tmpl_01jq4w5v2x8c9d0e1f2g3h4j5k" }),
  name: z.string(),
  match: TemplateMatch,
  fields: z.record(z.string(), z.string()),
  status: z.enum(CUSTOM_STATUSES).optional(),
  learned: z.object({
    orderId: z.string(),
    field: z.string().openapi({ description: "The field last learned into it" }),
    at: timestamp,
  }).optional().openapi({
    description: "Present on a template the service learned from a correction of that order",
  }),
  createdAt: timestamp,
  updatedAt: timestamp.optional(),
}).openapi("CustomTemplate");

export const BuiltInTemplateSchema = z.object({
  id: z.string(),
  name: z.string(),
  stores: z.array(z.string()).openapi({ description: "Sender domains it covers" }),
}).openapi("BuiltInTemplate");
