/** The email-verification mail, sent by register (with SMTP configured) and on request. */
import type { AppDeps } from "../deps.ts";
import type { UserRecord } from "../domain/account/user.ts";
import type { Mail } from "../vendors/mailer.ts";
import { issueVerificationToken } from "../store/account/email_verifications.ts";

function verificationMail(baseUrl: string, to: string, token: string): Mail {
  const link = `${baseUrl}/verify-email?token=${encodeURIComponent(token)}`;
  return {
    to,
    subject: "Confirm your email address",
    text: `Confirm that ${to} is the address of your order-tracker account:\n\n${link}\n\n` +
      "The link works once, within 24 hours. If you did not ask for it, ignore this message.\n",
  };
}

/**
 * Issues a one-time link (24 hours) for the account's email and mails it after the answer
 * (how long the mail server takes is not the client's wait). False when the account is gone.
 */
export async function sendVerificationMail(deps: AppDeps, user: UserRecord): Promise<boolean> {
  const token = await issueVerificationToken(deps.kv, user, deps.now());
  if (!token) return false;
  const mail = verificationMail(deps.config.baseUrl, user.email, token);
  deps.background.run("email-verification mail", () => deps.mailer.send(mail));
  return true;
}
