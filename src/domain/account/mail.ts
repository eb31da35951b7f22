/**
 * The texts of the mails the service sends about an account: the password-reset link and the
 * email-verification link. Pure: the caller issues the token and sends the mail.
 */

/** A plain-text mail (the mailer's `Mail`). */
export interface MailText {
  to: string;
  subject: string;
  text: string;
}

/** The password-reset mail: a link to the dashboard's reset page, valid one hour. */
export function resetMail(baseUrl: string, to: string, token: string): MailText {
  const link = `${baseUrl}/reset-password?token=${encodeURIComponent(token)}`;
  return {
    to,
    subject: "Reset your password",
    text: `Someone asked to reset the password of the account ${to}.\n\n` +
      `Open this link within one hour to choose a new password:\n\n${link}\n\n` +
      "If it was not you, ignore this message: your password stays as it is.\n",
  };
}

/** The email-verification mail: a one-time link, valid 24 hours. */
export function verificationMail(baseUrl: string, to: string, token: string): MailText {
  const link = `${baseUrl}/verify-email?token=${encodeURIComponent(token)}`;
  return {
    to,
    subject: "Confirm your email address",
    text: `Confirm that ${to} is the address of your order-tracker account:\n\n${link}\n\n` +
      "The link works once, within 24 hours. If you did not ask for it, ignore this message.\n",
  };
}
