import type { AnswerJournal } from "../store/webhooks/answers.ts";
import type { ClaimWriter } from "../store/webhooks/attempts.ts";
import type { OutcomeWriter } from "../store/webhooks/outcomes.ts";
import type { EventBus } from "./bus.ts";
import type { EventTransport } from "./transport.ts";

/**
 * The one events object of a store: how committed events travel (the KV queue, or an outbox
 * where KV has none), the bus every commit with events goes through (and whose listeners hear
 * of it at once), and the writers that batch webhook delivery claims and outcomes into shared
 * commits.
 */
export interface Events {
  transport: EventTransport;
  bus: EventBus;
  claims: ClaimWriter;
  outcomes: OutcomeWriter;
  /** Answers received and not yet recorded, beside a KV file (none elsewhere). */
  answers: AnswerJournal;
}
