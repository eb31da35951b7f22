import type { Transporter } from "nodemailer";
import type { Config } from "../config.ts";
import type { Logger } from "../lib/log.ts";

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * Outgoing mail through `SMTP_URL` (`smtp://` with STARTTLS when offered, `smtps://` for TLS
 * from the start, credentials in the URL) from `MAIL_FROM`. Without `SMTP_URL` the message is
 * written to the log instead (CONTRACT.md), so a deployment without mail still works: that log
 * then holds one-time links and is as sensitive as a mailbox (docs/accounts.md).
 */
export function createMailer(config: Config["smtp"], log: Logger): Mailer {
  const { url, from } = config;
  if (!url || !from) {
    return {
      send: (mail) => {
        log.info("mail not sent: SMTP_URL is unset; message follows", { ...mail });
        return Promise.resolve();
      },
    };
  }
  // The package is imported at the first message: its live heap is multiplied in the isolate's
  // peak memory (docs/benchmarks.md, "Email intake memory"), and most processes send no mail.
  let transport: Promise<Transporter> | undefined;
  return {
    async send(mail) {
      transport ??= import("nodemailer").then(({ default: nodemailer }) =>
        nodemailer.createTransport({
          url,
          connectionTimeout: 10_000,
          greetingTimeout: 10_000,
          socketTimeout: 20_000,
        })
      );
      await (await transport).sendMail({ from, ...mail });
      log.info("mail sent", { subject: mail.subject });
    },
  };
}
