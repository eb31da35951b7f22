/**
 * The answers of the email intake paths (`POST /api/email/import`, `POST /api/inbound/mail`),
 * which share one reading path and differ only in the plan-limit status (429 / 402).
 */
import type { Context } from "hono";
import { planLimitMessage } from "../domain/billing/plan.ts";
import type { MailResult } from "../intake/mail.ts";
import type { AppEnv } from "./env.ts";
import { ApiError, unauthorized } from "./errors.ts";

export const BLOCKED_MESSAGE = "The sender is not allowed to send orders to this email source";
export const UNREADABLE_MESSAGE = "The message could not be read as an email order";

/** 202 created/merged, 200 duplicate; errors thrown as the spec's statuses. */
export function mailAnswer(c: Context<AppEnv>, result: MailResult, planStatus: 402 | 429) {
  const r = result.received;
  switch (r.outcome) {
    case "created":
    case "merged":
      return c.json(
        { ok: true as const, orderId: r.orderId, merged: r.outcome === "merged", logId: r.logId },
        202,
      );
    case "duplicate":
      return c.json({ duplicate: true as const, logId: r.logId }, 200);
    case "blocked":
      throw new ApiError(403, BLOCKED_MESSAGE, {
        ...(result.blockedSender ? { blockedSender: result.blockedSender } : {}),
        logId: r.logId,
      });
    case "ignored":
    case "unreadable": {
      const why = result.read.reading.kind === "order" ? undefined : (
        "why" in result.read.reading ? result.read.reading.why : undefined
      );
      throw new ApiError(422, UNREADABLE_MESSAGE, {
        ...(why ? { why } : {}),
        logId: r.logId,
      });
    }
    case "rejected":
      throw new ApiError(planStatus, planLimitMessage(r.limit.cap), { ...r.limit, logId: r.logId });
    case "account_gone":
      throw unauthorized();
  }
}
