import { deepStrictEqual as eq, ok } from "node:assert/strict";
import { resetMail, verificationMail } from "../../src/domain/account/mail.ts";

Deno.test("account mails: to the address, with the token's link encoded", () => {
  const reset = resetMail("https://orders.example.org", "sam@example.com", "a+b/c");
  eq([reset.to, reset.subject], ["sam@example.com", "Reset your password"]);
  ok(reset.text.includes("https://orders.example.org/reset-password?token=a%2Bb%2Fc\n"));
  ok(reset.text.includes("within one hour"));
  const verify = verificationMail("https://orders.example.org", "sam@example.com", "t 1");
  eq([verify.to, verify.subject], ["sam@example.com", "Confirm your email address"]);
  ok(verify.text.includes("https://orders.example.org/verify-email?token=t%201\n"));
  ok(verify.text.includes("within 24 hours"));
});
