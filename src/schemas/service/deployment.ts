/** The response body of `GET /api/deployment`. */
import { z } from "@hono/zod-openapi";
import { CURRENCIES } from "../../domain/insights/currency.ts";

export const DeploymentSchema = z.object({
  baseUrl: z.string().openapi({ description: "The base URL of links (`BASE_URL`)" }),
  baseUrlLocal: z.boolean().openapi({
    description: "The base URL names this machine (`BASE_URL` unset or loopback): links such as " +
      "bot URLs work only here",
  }),
  mail: z.object({
    domain: z.string().openapi({ description: "Domain of forwarding addresses (`MAIL_DOMAIN`)" }),
    smtpPort: z.number().int().optional().openapi({
      description: "Port of the built-in SMTP receiver, when it runs (`SMTP_PORT`)",
    }),
    mailWorker: z.boolean().openapi({
      description: "An operator mail worker may post mail (`INBOUND_MAIL_KEY` set)",
    }),
    canArrive: z.boolean().openapi({
      description: "Forwarded mail can reach this deployment: a receiver or worker, and a " +
        "domain other than `inbound.localhost`",
    }),
    missing: z.array(z.string()).openapi({
      description: "What the operator must set so that it can (variable names)",
      example: ["SMTP_PORT or INBOUND_MAIL_KEY", "MAIL_DOMAIN"],
    }),
    imapPollMinutes: z.number().int().openapi({
      description: "How often connected IMAP mailboxes are checked",
    }),
  }),
  outgoingMail: z.boolean().openapi({
    description: "Mail goes out (`SMTP_URL`); otherwise messages are written to the server log",
  }),
  billing: z.boolean().openapi({ description: "Plans and the free-plan cap are on" }),
  currencies: z.array(z.enum(CURRENCIES)).openapi({
    description: "The workspace currencies this server knows (settings `currency`): those " +
      "intake recognises in printed totals",
  }),
  secretsKey: z.enum(["ok", "mismatch", "none"]).openapi({
    description: "Whether the secrets key opens the secrets stored here: `mismatch` after a " +
      "restore without its `secrets.key` (webhook secrets and mailbox passwords cannot be " +
      "read; `secretsProblem` says what to do); `none` when this deployment has no key",
  }),
  secretsProblem: z.string().optional().openapi({
    description: "With `secretsKey: mismatch`, what is wrong and what to do, in words",
  }),
  registration: z.enum(["open", "closed", "invite"]).openapi({
    description: "Who may create an account (`REGISTRATION`): anyone, nobody but the first " +
      "account, or whoever holds an invitation (`POST /api/account/invitations`)",
  }),
}).openapi("Deployment");
