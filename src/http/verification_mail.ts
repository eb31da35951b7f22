/** The email-verification mail, sent by register (with SMTP configured) and on request. */
import type { AppDeps } from "../deps.ts";
import type { UserRecord } from "../domain/account/user.ts";
import { verificationMail } from "../domain/account/mail.ts";
import { issueVerificationToken } from "../store/account/email_verifications.ts";

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
