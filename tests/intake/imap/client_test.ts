import { deepStrictEqual as eq } from "node:assert/strict";
import { mailboxFailure, uidSet } from "../../../src/intake/imap/client.ts";

Deno.test("uidSet: runs as ranges, so a command line stays short", () => {
  eq(uidSet([]), "");
  eq(uidSet([7]), "7");
  eq(uidSet([1, 2, 3, 7, 9, 10]), "1:3,7,9:10");
  eq(uidSet(Array.from({ length: 10_000 }, (_, i) => i + 1)), "1:10000");
});

Deno.test("mailboxFailure: the owner's words, never the error's internals", () => {
  const at = { host: "imap.example.com", port: 993 };
  const cases: [unknown, string][] = [
    [
      { authenticationFailed: true, message: "Command failed" },
      "Sign-in failed: the mailbox refused the username or password",
    ],
    [
      { code: "CERT_HAS_EXPIRED" },
      "TLS failure: the certificate of imap.example.com:993 has expired",
    ],
    [
      { code: "SELF_SIGNED_CERT_IN_CHAIN" },
      "TLS failure: the certificate of imap.example.com:993 is not trusted",
    ],
    [
      { code: "ERR_TLS_CERT_ALTNAME_INVALID" },
      "TLS failure: the certificate of imap.example.com:993 is not for imap.example.com",
    ],
    [
      { code: "ERR_SSL_WRONG_VERSION_NUMBER" },
      "TLS failure: the secure connection to imap.example.com:993 could not be set up",
    ],
    [
      {
        message: "Client network socket disconnected before secure TLS connection was established",
      },
      "TLS failure: the secure connection to imap.example.com:993 could not be set up",
    ],
    [{ code: "ECONNREFUSED" }, "Could not connect to imap.example.com:993: connection refused"],
    [{ code: "GREETING_TIMEOUT" }, "Could not connect to imap.example.com:993: no answer in time"],
    [{ code: "EHOSTUNREACH" }, "Could not connect to imap.example.com:993: host unreachable"],
    [{ code: "ECONNRESET" }, "The connection to imap.example.com:993 was closed"],
    [
      { code: "ProtocolError", message: "secret detail" },
      "The mailbox at imap.example.com:993 failed (ProtocolError)",
    ],
    [new Error("anything"), "The mailbox at imap.example.com:993 failed"],
  ];
  for (const [err, expected] of cases) eq(mailboxFailure(err, at), expected, JSON.stringify(err));
});
