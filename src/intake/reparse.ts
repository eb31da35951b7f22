/**
 * `POST /api/orders/reparse`: the stored messages of orders read again with today's readers
 * and templates; every field they give that the user did not edit is corrected, oldest message
 * first. Fires no events.
 */
import type { IntakeLogEntry } from "../domain/intake/reading.ts";
import { type MessageFields, type Order, reviseFromMessage } from "../domain/orders/order.ts";
import { getRawMessage, listIntakeLog, ordersWithMessages } from "../store/intake/log.ts";
import { rewriteOrder } from "../store/orders/orders.ts";
import { readChatPost } from "./chat/read.ts";
import type { CompiledTemplate } from "./email/custom.ts";
import { type EmailReader, inProcessReader } from "./email/readers.ts";
import { customTemplatesOf } from "./mail.ts";

/** Messages re-read per order at most (the newest ones). */
const MAX_MESSAGES_PER_ORDER = 200;

async function fieldsOf(
  entry: IntakeLogEntry,
  raw: Uint8Array,
  now: number,
  templates: CompiledTemplate[],
  reader: EmailReader,
): Promise<MessageFields | null> {
  if (entry.channel === "email") {
    const read = await reader.read(raw, now, templates);
    return read.reading.kind === "order" ? read.reading.fields : null;
  }
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(raw));
  } catch {
    return null;
  }
  const read = readChatPost(body);
  return read.reading.kind === "order" ? read.reading.fields : null;
}

/** Re-reads the orders' stored messages; counts of orders re-read and of orders changed. */
export async function reparseOrders(
  kv: Deno.Kv,
  userId: string,
  orderIds: string[] | undefined,
  now: number,
  reader: EmailReader = inProcessReader,
): Promise<{ reparsed: number; changed: number }> {
  const ids = orderIds ?? await ordersWithMessages(kv, userId);
  const templates = await customTemplatesOf(kv, userId);
  let reparsed = 0;
  let changed = 0;
  for (const orderId of new Set(ids)) {
    const { items } = await listIntakeLog(kv, userId, { orderId, limit: MAX_MESSAGES_PER_ORDER });
    const readings: MessageFields[] = [];
    for (const entry of items.reverse()) {
      if (!entry.rawSize) continue;
      const raw = await getRawMessage(kv, userId, entry.id);
      const fields = raw && await fieldsOf(entry, raw, now, templates, reader);
      if (fields) readings.push(fields);
    }
    if (readings.length === 0) continue;
    reparsed++;
    const outcome = await rewriteOrder(kv, userId, orderId, (order: Order) => {
      let current = order;
      let any = false;
      for (const fields of readings) {
        const { order: next, changed: moved } = reviseFromMessage(current, fields, now);
        current = next;
        any ||= moved;
      }
      return any ? current : null;
    });
    if (outcome === "changed") changed++;
  }
  return { reparsed, changed };
}
