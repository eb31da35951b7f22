import { deepStrictEqual as eq } from "node:assert/strict";
import { PASSWORD_FOR_MOVE, type StoredEmailSource } from "../../src/domain/intake/email_source.ts";
import {
  applySourceChanges,
  missingOnCreate,
  testTarget,
} from "../../src/domain/intake/email_source_changes.ts";

const NOW = Date.parse("2026-03-03T10:00:00Z");

const forwarding: StoredEmailSource = {
  id: "email_1",
  kind: "forwarding",
  name: "Forwarding address",
  allowedSenders: [],
  active: true,
  createdAt: "2026-03-01T00:00:00.000Z",
  slug: "3f9a1c0b7d",
};

const imap: StoredEmailSource = {
  id: "email_2",
  kind: "imap",
  name: "Mailbox imap.example.com",
  allowedSenders: [],
  active: true,
  createdAt: "2026-03-01T00:00:00.000Z",
  host: "imap.example.com",
  port: 993,
  tls: true,
  username: "sam",
  mailbox: "INBOX",
  sealedPassword: "sealed",
};

Deno.test("missingOnCreate: a mailbox needs host, username and password; forwarding nothing", () => {
  eq(missingOnCreate("forwarding", {}), null);
  eq(missingOnCreate("imap", {}), "host is required");
  eq(missingOnCreate("imap", { host: "h" }), "username is required");
  eq(missingOnCreate("imap", { host: "h", username: "u" }), "password is required");
  eq(missingOnCreate("imap", { host: "h", username: "u", password: "p" }), null);
});

Deno.test("applySourceChanges: a forwarding source takes name, allow-list and active only", () => {
  const out = applySourceChanges(forwarding, {
    name: "Shop mail",
    allowedSenders: ["Orders@Shop.com", "@Shop.com", "orders@shop.com"],
    active: false,
  }, NOW);
  eq(out, {
    ok: true,
    source: {
      ...forwarding,
      name: "Shop mail",
      allowedSenders: ["orders@shop.com", "@shop.com"],
      active: false,
      updatedAt: "2026-03-03T10:00:00.000Z",
    },
  });
  for (const field of ["host", "port", "tls", "username", "password", "mailbox"] as const) {
    const body = { [field]: field === "port" ? 143 : field === "tls" ? false : "x" };
    eq(applySourceChanges(forwarding, body, NOW), {
      ok: false,
      error: `${field}: only for imap sources`,
    });
  }
});

Deno.test("applySourceChanges: a malformed allow-list entry is named by its index", () => {
  eq(applySourceChanges(forwarding, { allowedSenders: ["@shop.com", "not an address"] }, NOW), {
    ok: false,
    error: "allowedSenders.1: must be an address or @domain",
  });
});

Deno.test("applySourceChanges: a mailbox moved elsewhere needs its password again", () => {
  eq(applySourceChanges(imap, { host: "IMAP.other.example" }, NOW), {
    ok: false,
    error: PASSWORD_FOR_MOVE,
  });
  eq(applySourceChanges(imap, { mailbox: "Orders" }, NOW), {
    ok: true,
    source: { ...imap, mailbox: "Orders", updatedAt: "2026-03-03T10:00:00.000Z" },
  });
  eq(applySourceChanges(imap, { host: "IMAP.other.example", password: "new" }, NOW), {
    ok: true,
    source: { ...imap, host: "imap.other.example", updatedAt: "2026-03-03T10:00:00.000Z" },
  });
});

Deno.test("testTarget: the settings sent, the source's for the rest, the defaults last", () => {
  eq(testTarget({ host: "imap.example.com", username: "sam", password: "p" }, undefined), {
    ok: true,
    target: { host: "imap.example.com", port: 993, tls: true, username: "sam", mailbox: "INBOX" },
    useStored: false,
  });
  eq(testTarget({ mailbox: "Orders" }, imap), {
    ok: true,
    target: { host: "imap.example.com", port: 993, tls: true, username: "sam", mailbox: "Orders" },
    useStored: true,
  });
  eq(testTarget({}, forwarding), { ok: false, error: "sourceId: not an imap source" });
  eq(testTarget({ username: "sam" }, undefined), { ok: false, error: "host is required" });
  eq(testTarget({ host: "h" }, undefined), { ok: false, error: "username is required" });
  // The stored password goes only where it was given for.
  eq(testTarget({ port: 143 }, imap), { ok: false, error: PASSWORD_FOR_MOVE });
  eq(testTarget({ port: 143, password: "p" }, imap).ok, true);
});
