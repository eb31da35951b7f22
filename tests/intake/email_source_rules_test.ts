import { deepStrictEqual as eq, equal } from "node:assert/strict";
import {
  cursorFor,
  forwardingSlugOf,
  pollDue,
  type StoredEmailSource,
} from "../../src/domain/intake/email_source.ts";

Deno.test("forwardingSlugOf: the slug of an address at MAIL_DOMAIN, in its usual spellings", () => {
  const domain = "in.example.com";
  const cases: [string, string | null][] = [
    ["3f9a1c0b7d@in.example.com", "3f9a1c0b7d"],
    ["3F9A1C0B7D@IN.Example.com", "3f9a1c0b7d"],
    ["3f9a1c0b7d+shop@in.example.com", "3f9a1c0b7d"],
    ["Orders <3f9a1c0b7d@in.example.com>", "3f9a1c0b7d"],
    ["  <3f9a1c0b7d@in.example.com>  ", "3f9a1c0b7d"],
    ["3f9a1c0b7d@other.example.com", null],
    ["3f9a1c0b7d@sub.in.example.com", null],
    ["3f9a1c0b7d", null],
    ["@in.example.com", null],
    ["+tag@in.example.com", null],
    ["a b@in.example.com", null],
    [`${"a".repeat(65)}@in.example.com`, null],
  ];
  for (const [address, slug] of cases) equal(forwardingSlugOf(address, domain), slug, address);
});

Deno.test("pollDue: active imap sources not polled within the interval (a little early counts)", () => {
  const now = Date.parse("2026-03-03T10:00:00Z");
  const source: StoredEmailSource = {
    id: "email_1",
    kind: "imap",
    name: "m",
    allowedSenders: [],
    active: true,
    createdAt: "2026-03-01T00:00:00Z",
  };
  const at = (ms: number) => new Date(now - ms).toISOString();
  const five = 5 * 60_000;
  equal(pollDue(source, now, five), true);
  equal(pollDue({ ...source, lastPolledAt: at(five) }, now, five), true);
  equal(pollDue({ ...source, lastPolledAt: at(five - 20_000) }, now, five), true);
  equal(pollDue({ ...source, lastPolledAt: at(five - 40_000) }, now, five), false);
  equal(pollDue({ ...source, active: false }, now, five), false);
  equal(pollDue({ ...source, kind: "forwarding" }, now, five), false);
});

Deno.test("cursorFor: kept for the same mailbox and UIDVALIDITY; else fresh, history up to UIDNEXT - 1 over 30 days", () => {
  const now = Date.parse("2026-03-31T00:00:00Z");
  const box = "me@imap.example.com:993/INBOX";
  const stored = { mailbox: box, uidValidity: "7", lastUid: 40, historyUntil: 12, historySince: 1 };
  eq(cursorFor(stored, { identity: box, uidValidity: "7", uidNext: 99 }, now), stored);
  const fresh = {
    mailbox: box,
    uidValidity: "8",
    lastUid: 0,
    historyUntil: 98,
    historySince: Date.parse("2026-03-01T00:00:00Z"),
  };
  eq(cursorFor(stored, { identity: box, uidValidity: "8", uidNext: 99 }, now), fresh);
  eq(cursorFor(null, { identity: box, uidValidity: "8", uidNext: 99 }, now), fresh);
  eq(cursorFor(null, { identity: box, uidValidity: "8", uidNext: 1 }, now).historyUntil, 0);
  // Another folder (or user, or host) with the same UIDVALIDITY is another mailbox.
  const other = "me@imap.example.com:993/Orders";
  eq(cursorFor(stored, { identity: other, uidValidity: "7", uidNext: 99 }, now), {
    ...fresh,
    mailbox: other,
    uidValidity: "7",
  });
});
