import { z } from "@hono/zod-openapi";
import {
  checkDisplayName,
  type Checked,
  checkTimezone,
  checkUsername,
  DISPLAY_NAME_MAX,
  USERNAME_MAX,
  USERNAME_MIN,
} from "../../domain/account/profile.ts";
import { API_KEY_NAME_MAX, UNTITLED_KEY } from "../../domain/account/api_key.ts";

/** A string field checked by a domain rule; failures read `<field>: <what is wrong>`. */
function ruled<T>(check: (raw: string) => Checked<T>) {
  return z.string().transform((raw, ctx) => {
    const checked = check(raw);
    if (checked.ok) return checked.value;
    ctx.addIssue({ code: "custom", message: checked.error });
    return z.NEVER;
  });
}

export const UsernameField = ruled(checkUsername).openapi({
  description: `${USERNAME_MIN} to ${USERNAME_MAX} characters: ASCII letters, digits, \`_\` and ` +
    "`-`, starting with a letter or digit; not a reserved word and not starting with `usr_`. " +
    "Case is kept for display; uniqueness ignores case (409 when taken).",
  example: "parcel_fan",
});

export const DisplayNameField = ruled(checkDisplayName).openapi({
  description: `Trimmed; at most ${DISPLAY_NAME_MAX} characters, no control characters. ` +
    "An empty string clears it.",
  example: "Sam",
});

export const TimezoneField = ruled(checkTimezone).openapi({
  description: "An IANA time zone name (stored in its canonical spelling); offsets like " +
    "`+01:00` are refused.",
  example: "Europe/Paris",
});

const PASSWORD_RULE = "must be 8 to 256 characters";
export const PasswordField = z.string().min(8, PASSWORD_RULE).max(256, PASSWORD_RULE).openapi({
  description: "8 to 256 characters",
});

export const UserSchema = z.object({
  id: z.string().openapi({ example: "usr_01j9zq0000abcdefghjkmnpqrs" }),
  username: z.string().optional(),
  email: z.string(),
  displayName: z.string().optional(),
  createdAt: z.string().openapi({ description: "ISO 8601 UTC" }),
  publicProfile: z.boolean(),
  publicStats: z.boolean(),
  webhookHandle: z.string().openapi({
    description: "Unguessable, URL-safe handle: the `{handle}` segment of chat-intake URLs",
  }),
  timezone: z.string().openapi({ example: "UTC" }),
  plan: z.enum(["free", "pro"]),
  subscriptionStatus: z.string().optional(),
  subscriptionPeriodEnd: z.string().optional(),
  subscriptionPriceId: z.string().optional(),
  emailVerified: z.boolean(),
}).openapi("User");

export const UserResponseSchema = z.object({ user: UserSchema }).openapi("UserResponse");

export const SessionSchema = z.object({
  token: z.string().openapi({
    description: "Session token: 64 hexadecimal characters, valid 14 days, not extended by use",
  }),
  user: UserSchema,
}).openapi("Session");

export const ApiKeyRecordSchema = z.object({
  id: z.string().openapi({ example: "key_01j9zq0000abcdefghjkmnpqrs" }),
  name: z.string(),
  prefix: z.string().openapi({
    description: "First 11 characters of the key",
    example: "sk_AbCdEfGh",
  }),
  createdAt: z.string(),
  lastUsedAt: z.string().optional().openapi({
    description: "Latest request authenticated with the key; absent until first use",
  }),
}).openapi("ApiKeyRecord");

export const ApiKeyNameField = z.string().nullish().openapi({
  description: `Trimmed, cut to ${API_KEY_NAME_MAX} characters; empty or missing becomes ` +
    `\`${UNTITLED_KEY}\`.`,
  example: "CI deploys",
});

const Items = z.array(z.record(z.string(), z.unknown()));
const Fields = z.record(z.string(), z.unknown());

export const SnapshotSchema = z.object({
  user: UserSchema,
  settings: Fields,
  bots: Items.openapi({ description: "Each bot with `stats` and `recentOrders`" }),
  emailSources: Items,
  orders: Items.openapi({ description: "Every order of the workspace" }),
  analytics: Fields.openapi({
    description: "`totalOrders`, `byStatus` (orders per status), `totalCostCents`, and " +
      "`profitability`: this month's, as `GET /api/profitability` answers it",
  }),
  templates: Items.openapi({ description: "Built-in and custom templates" }),
  subscriptions: Items.openapi({ description: "Recurring costs" }),
  webhookSubscriptions: Items.openapi({
    description: "Webhook subscriptions as their list shows them (no signing secrets)",
  }),
}).openapi("WorkspaceSnapshot");

export const ExportSchema = z.object({
  exportedAt: z.string(),
  account: UserSchema,
  settings: Fields,
  orders: Items,
  emailSources: Items.openapi({
    description: "Mailbox host, port, TLS flag and username; never passwords or OAuth tokens",
  }),
  bots: Items.openapi({ description: "Chat webhook URLs cut down to their host" }),
  customTemplates: Items,
  subscriptions: Items,
  webhookSubscriptions: Items.openapi({ description: "Without their signing secrets" }),
  shares: Items,
  apiKeys: z.array(ApiKeyRecordSchema).openapi({ description: "As in the key list; no hashes" }),
  intakeMessages: Items.openapi({ description: "Stored source emails and webhook posts" }),
}).openapi("AccountExport");
