/**
 * The KV key layout, in one place. Everything an account owns lives under `["ws", userId]`,
 * so deleting an account is one prefix plus the global lookup keys named in its records.
 * Global keys hold lookups that arrive without a user id (email, token hash, handle).
 */
export const keys = {
  // Accounts (global)
  user: (userId: string) => ["user", userId] as const,
  userByEmail: (emailLower: string) => ["user_by_email", emailLower] as const,
  userByUsername: (usernameLower: string) => ["user_by_username", usernameLower] as const,
  userByHandle: (handle: string) => ["user_by_handle", handle] as const,
  /** Session token hash -> session; expires with the session. */
  session: (tokenHash: string) => ["session", tokenHash] as const,
  /** API key hash -> {userId, keyId}. */
  apiKeyByHash: (hash: string) => ["api_key_by_hash", hash] as const,
  /** API key id -> last use time; kept apart so the hot path writes a tiny value. */
  apiKeyLastUsed: (keyId: string) => ["api_key_last_used", keyId] as const,

  // Workspace (everything under one user id)
  workspace: (userId: string) => ["ws", userId] as const,
  userSessions: (userId: string) => ["ws", userId, "session"] as const,
  userSession: (userId: string, tokenHash: string) => ["ws", userId, "session", tokenHash] as const,
  apiKeys: (userId: string) => ["ws", userId, "api_key"] as const,
  apiKey: (userId: string, keyId: string) => ["ws", userId, "api_key", keyId] as const,
  apiKeyCount: (userId: string) => ["ws", userId, "count", "api_keys"] as const,

  /** Orders of the workspace (the orders capability owns the rest of its keys). */
  orderCount: (userId: string) => ["ws", userId, "count", "orders"] as const,

  /** Events of the workspace in id (creation) order; kept for a bounded time. */
  events: (userId: string) => ["ws", userId, "event"] as const,
  event: (userId: string, eventId: string) => ["ws", userId, "event", eventId] as const,

  // Platform-wide counters (health counts, landing stats)
  stat: (name: "users" | "orders") => ["stats", name] as const,
  healthProbe: () => ["health", "probe"] as const,
};
