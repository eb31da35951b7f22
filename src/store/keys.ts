/**
 * The KV key layout, in one place. Everything an account owns lives under `["ws", userId]`,
 * so deleting an account is one prefix plus the global lookup keys named in its records.
 * Global keys hold lookups that arrive without a user id (email, token hash, handle).
 */
export const keys = {
  // Accounts (global)
  user: (userId: string) => ["user", userId] as const,
  /** Every account record (the carrier tracker walks them). */
  users: () => ["user"] as const,
  userByEmail: (emailLower: string) => ["user_by_email", emailLower] as const,
  userByUsername: (usernameLower: string) => ["user_by_username", usernameLower] as const,
  userByHandle: (handle: string) => ["user_by_handle", handle] as const,
  /** Session token hash -> session; expires with the session. */
  session: (tokenHash: string) => ["session", tokenHash] as const,
  /** API key hash -> {userId, keyId}. */
  apiKeyByHash: (hash: string) => ["api_key_by_hash", hash] as const,
  /** Linked sign-in identity (provider, subject) -> user id. */
  userByIdentity: (provider: string, subject: string) =>
    ["user_by_identity", provider, subject] as const,
  /** Password-reset token hash -> {userId, expiresAt}; one-time, 1 hour. */
  passwordReset: (tokenHash: string) => ["password_reset", tokenHash] as const,
  /** SHA-256 of a normalised email -> times of its reset requests in the last hour. */
  resetMailTimes: (emailHash: string) => ["reset_mail_times", emailHash] as const,
  /** Where a reset request without an account writes its token's twin records (overwritten). */
  resetDecoy: (part: "token" | "workspace") => ["reset_decoy", part] as const,
  /** Invitation token hash -> {userId, expiresAt}; single-use, 7 days (REGISTRATION=invite). */
  invitation: (tokenHash: string) => ["invitation", tokenHash] as const,

  // Workspace (everything under one user id)
  workspace: (userId: string) => ["ws", userId] as const,
  userSessions: (userId: string) => ["ws", userId, "session"] as const,
  userSession: (userId: string, tokenHash: string) => ["ws", userId, "session", tokenHash] as const,
  apiKeys: (userId: string) => ["ws", userId, "api_key"] as const,
  apiKey: (userId: string, keyId: string) => ["ws", userId, "api_key", keyId] as const,
  apiKeyCount: (userId: string) => ["ws", userId, "count", "api_keys"] as const,
  /** API key id -> last use time; kept apart so the hot path writes a tiny value. */
  apiKeysLastUsed: (userId: string) => ["ws", userId, "api_key_used"] as const,
  apiKeyLastUsed: (userId: string, keyId: string) => ["ws", userId, "api_key_used", keyId] as const,
  /** Outstanding password-reset tokens of the account (what a reset or deletion ends). */
  userPasswordResets: (userId: string) => ["ws", userId, "password_reset"] as const,
  /** The account's outstanding invitations (for deletion). */
  userInvitations: (userId: string) => ["ws", userId, "invitation"] as const,
  userInvitation: (userId: string, tokenHash: string) =>
    ["ws", userId, "invitation", tokenHash] as const,
  userPasswordReset: (userId: string, tokenHash: string) =>
    ["ws", userId, "password_reset", tokenHash] as const,

  /** Orders of the workspace (the orders capability owns the rest of its keys). */
  orderCount: (userId: string) => ["ws", userId, "count", "orders"] as const,
  // Orders (src/store/orders/orders.ts writes all of these in one commit per change)
  /** Order id -> the order. */
  orders: (userId: string) => ["ws", userId, "order"] as const,
  order: (userId: string, orderId: string) => ["ws", userId, "order", orderId] as const,
  /** Normalised order number -> order id; unique, checked on every create. */
  ordersByNumber: (userId: string) => ["ws", userId, "order_by_number"] as const,
  orderByNumber: (userId: string, number: string) =>
    ["ws", userId, "order_by_number", number] as const,
  /** (receivedAt ms, id) -> copy of the order: the newest-first list. */
  ordersByReceived: (userId: string) => ["ws", userId, "order_by_received"] as const,
  orderByReceived: (userId: string, ms: number, orderId: string) =>
    ["ws", userId, "order_by_received", ms, orderId] as const,
  /** (status, receivedAt ms, id) -> copy of the order: the list filtered by status. */
  ordersByAnyStatus: (userId: string) => ["ws", userId, "order_by_status"] as const,
  ordersByStatus: (userId: string, status: string) =>
    ["ws", userId, "order_by_status", status] as const,
  orderByStatus: (userId: string, status: string, ms: number, orderId: string) =>
    ["ws", userId, "order_by_status", status, ms, orderId] as const,
  /** KvU64: orders in a status. */
  orderStatusCounts: (userId: string) => ["ws", userId, "count", "orders_status"] as const,
  orderStatusCount: (userId: string, status: string) =>
    ["ws", userId, "count", "orders_status", status] as const,
  /** KvU64: orders received in a time bucket (`dim` is "all" or a status; see domain/buckets). */
  allOrderBuckets: (userId: string) => ["ws", userId, "order_bucket"] as const,
  orderBuckets: (userId: string, dim: string, level: number) =>
    ["ws", userId, "order_bucket", dim, level] as const,
  orderBucket: (userId: string, dim: string, level: number, bucket: number) =>
    ["ws", userId, "order_bucket", dim, level, bucket] as const,
  /** KvU64: new orders created in a calendar month (`YYYY-MM`, account timezone): the plan cap. */
  ordersCreatedInMonth: (userId: string, month: string) =>
    ["ws", userId, "count", "orders_created", month] as const,
  /** (term, receivedAt ms, id) -> [status index, search text]: the `q` index (search_index.ts). */
  searchPostings: (userId: string) => ["ws", userId, "search"] as const,
  searchTerm: (userId: string, term: string) => ["ws", userId, "search", term] as const,
  searchPosting: (userId: string, term: string, ms: number, orderId: string) =>
    ["ws", userId, "search", term, ms, orderId] as const,
  /** KvU64: orders with a term (zero once none has it). */
  searchCounts: (userId: string) => ["ws", userId, "search_n"] as const,
  searchCount: (userId: string, term: string) => ["ws", userId, "search_n", term] as const,
  /**
   * `true`: `suffix` is a proper suffix of `word`, a word some order had (the vocabulary of
   * `q`'s substring rule: written when the word's count leaves zero, kept after it returns).
   */
  searchVocabulary: (userId: string) => ["ws", userId, "search_sub"] as const,
  searchSuffixes: (userId: string, suffix: string) => ["ws", userId, "search_sub", suffix] as const,
  searchSuffix: (userId: string, suffix: string, word: string) =>
    ["ws", userId, "search_sub", suffix, word] as const,
  /** Recent order changes, (real time ms, id) -> search entry or deletion; live an hour. */
  orderChanges: (userId: string) => ["ws", userId, "order_change"] as const,
  orderChange: (userId: string, ms: number, orderId: string) =>
    ["ws", userId, "order_change", ms, orderId] as const,
  /** Rewritten by every order change: a cheap "anything new?" (insights cache, migrations, verifier). */
  orderRevision: (userId: string) => ["ws", userId, "order_rev"] as const,
  /** Sum of the workspace's order values: account deletion subtracts it from the platform's. */
  valueCents: (userId: string) => ["ws", userId, "count", "value_cents"] as const,

  /** Events of the workspace in id (creation) order; kept for a bounded time. */
  events: (userId: string) => ["ws", userId, "event"] as const,
  event: (userId: string, eventId: string) => ["ws", userId, "event", eventId] as const,

  // Webhooks: subscriptions, delivery log and workspace settings
  webhookSubs: (userId: string) => ["ws", userId, "whsub"] as const,
  webhookSub: (userId: string, subId: string) => ["ws", userId, "whsub", subId] as const,
  webhookSubCount: (userId: string) => ["ws", userId, "count", "whsubs"] as const,
  /** One entry per delivery attempt, newest last; kept for a bounded time. */
  webhookLogs: (userId: string) => ["ws", userId, "whlog"] as const,
  webhookLog: (userId: string, logId: string) => ["ws", userId, "whlog", logId] as const,
  settings: (userId: string) => ["ws", userId, "settings"] as const,
  /** (event, subscription) -> its attempt, claimed then done; re-sent only if left claimed. */
  webhookAttempt: (userId: string, eventId: string, subId: string) =>
    ["ws", userId, "whsub_attempt", eventId, subId] as const,

  // Intake: every received message (email, chat), its stored raw copy and its dedupe key
  /** Log id -> the log entry (`IntakeLogEntry`); ids sort by time, newest last. */
  intakeLogs: (userId: string) => ["ws", userId, "intake_log"] as const,
  intakeLog: (userId: string, logId: string) => ["ws", userId, "intake_log", logId] as const,
  /** (channel, log id) -> null: the inbox (email) and all chat posts, newest last. */
  intakeByChannel: (userId: string, channel: string) =>
    ["ws", userId, "intake_by_channel", channel] as const,
  intakeByChannelEntry: (userId: string, channel: string, logId: string) =>
    ["ws", userId, "intake_by_channel", channel, logId] as const,
  /** (source id, log id) -> null: one email source's or bot's messages. */
  intakeBySource: (userId: string, sourceId: string) =>
    ["ws", userId, "intake_by_source", sourceId] as const,
  intakeBySourceEntry: (userId: string, sourceId: string, logId: string) =>
    ["ws", userId, "intake_by_source", sourceId, logId] as const,
  /** (order id, log id) -> null: the messages merged into an order (its provenance). */
  orderMessagesAll: (userId: string) => ["ws", userId, "order_message"] as const,
  orderMessages: (userId: string, orderId: string) =>
    ["ws", userId, "order_message", orderId] as const,
  orderMessage: (userId: string, orderId: string, logId: string) =>
    ["ws", userId, "order_message", orderId, logId] as const,
  /** (channel, identity) -> log id of the first copy: Message-ID or SHA-256 of the raw bytes. */
  intakeDedupe: (userId: string, channel: string, identity: string) =>
    ["ws", userId, "intake_dedupe", channel, identity] as const,
  /** Log id -> the raw message (a chunked blob). */
  intakeRaw: (userId: string, logId: string) => ["ws", userId, "intake_raw", logId] as const,

  // Email sources and custom templates
  /** Source id -> the email source (password sealed). */
  emailSources: (userId: string) => ["ws", userId, "email_source"] as const,
  emailSource: (userId: string, sourceId: string) =>
    ["ws", userId, "email_source", sourceId] as const,
  /** The progress of a source's latest rebuild (`store/intake/email_sources.ts`). */
  emailSourceRebuild: (userId: string, sourceId: string) =>
    ["ws", userId, "email_rebuild", sourceId] as const,
  /** Forwarding slug -> {userId, sourceId}: where mail to `<slug>@MAIL_DOMAIN` goes. */
  forwardingAddress: (slug: string) => ["email_forward", slug] as const,
  /** (user id, source id) -> null: every imap source, what the polling job walks. */
  mailboxesToPoll: () => ["email_poll"] as const,
  mailboxToPoll: (userId: string, sourceId: string) => ["email_poll", userId, sourceId] as const,
  /** Source id -> `MailboxCursor`: the mailbox's UIDVALIDITY and the last UID read. */
  mailboxCursor: (userId: string, sourceId: string) =>
    ["ws", userId, "imap_cursor", sourceId] as const,
  /** Template id -> the custom template; ids sort by creation. */
  customTemplates: (userId: string) => ["ws", userId, "template"] as const,
  customTemplate: (userId: string, templateId: string) =>
    ["ws", userId, "template", templateId] as const,

  // Carriers: orders by tracking number, live answers with the tracker's schedule, budgets
  /** (tracking key, order id) -> order id: the orders a carrier answer applies to. */
  trackingIndex: (userId: string) => ["ws", userId, "order_by_tracking"] as const,
  ordersByTracking: (userId: string, trackingKey: string) =>
    ["ws", userId, "order_by_tracking", trackingKey] as const,
  orderByTracking: (userId: string, trackingKey: string, orderId: string) =>
    ["ws", userId, "order_by_tracking", trackingKey, orderId] as const,
  /** Tracking key -> the last live answer and the tracker's schedule (`store/tracking/answers.ts`). */
  trackingRecords: (userId: string) => ["ws", userId, "tracking"] as const,
  trackingRecord: (userId: string, trackingKey: string) =>
    ["ws", userId, "tracking", trackingKey] as const,
  /** KvU64: calls made to a carrier API on a UTC day, by purpose (`tracker`, `lookup`). */
  carrierCalls: (api: string, day: string, purpose: string) =>
    ["carrier_calls", api, day, purpose] as const,

  // Chat: bots, their tallies, embed samples, the embed copier, digests and update relays
  /** Bot id -> the bot; ids sort by creation time. */
  bots: (userId: string) => ["ws", userId, "bot"] as const,
  bot: (userId: string, botId: string) => ["ws", userId, "bot", botId] as const,
  /**
   * Global: (account's webhook handle, SHA-256 of the bot's slug) -> a copy of the bot, what
   * its intake URL finds in one read.
   */
  botByUrl: (handle: string, slugHash: string) => ["bot_by_url", handle, slugHash] as const,
  botCount: (userId: string) => ["ws", userId, "count", "bots"] as const,
  /** KvU64 per bot and outcome (`created`, `merged`, `rejected`): its posts that had it. */
  botTallies: (userId: string, botId: string) => ["ws", userId, "bot_tally", botId] as const,
  botTally: (userId: string, botId: string, name: string) =>
    ["ws", userId, "bot_tally", botId, name] as const,
  /** Log id -> an ignored chat post's redacted embed (for writing templates); expires. */
  embedSamples: (userId: string) => ["ws", userId, "embed_sample"] as const,
  embedSample: (userId: string, logId: string) => ["ws", userId, "embed_sample", logId] as const,
  /** The embed copier's submission token; the global lookup by its SHA-256 -> user id. */
  embedCopier: (userId: string) => ["ws", userId, "embed_copier"] as const,
  embedCopierByHash: (tokenHash: string) => ["embed_copier_by_hash", tokenHash] as const,
  /** The digest setting and its next due time; the global due index the digest job reads. */
  chatDigest: (userId: string) => ["ws", userId, "chat_digest"] as const,
  chatDigestsDue: () => ["chat_digest_due"] as const,
  chatDigestDue: (dueMs: number, userId: string) => ["chat_digest_due", dueMs, userId] as const,
  /** An order event announced to `updatesWebhook`, claimed before the send: once per event. */
  chatRelay: (userId: string, eventId: string) => ["ws", userId, "chat_relay", eventId] as const,
  // Money and insights: maintained sums, recurring costs, shares, leaderboard, billing
  /**
   * Insight sums of one generation (store/insights/sums.ts): `[..., generation, ...part]` -> KvU64,
   * the parts of domain/insights/sums.ts and domain/insights/leaderboard.ts. A timezone change starts a new
   * generation, rebuilt from the orders; older generations are deleted.
   */
  insightsRoot: (userId: string) => ["ws", userId, "insight"] as const,
  insights: (userId: string, generation: string) => ["ws", userId, "insight", generation] as const,
  insight: (userId: string, generation: string, part: readonly (string | number)[]) =>
    ["ws", userId, "insight", generation, ...part] as const,
  /** Accounts that may appear on the leaderboard (public stats and a username): id -> true. */
  leaderboardMembers: () => ["leaderboard"] as const,
  leaderboardMember: (userId: string) => ["leaderboard", userId] as const,
  /** Recurring cost id (`sub_`) -> the cost, and their number (the cap). */
  recurringCosts: (userId: string) => ["ws", userId, "recurring_cost"] as const,
  recurringCost: (userId: string, id: string) => ["ws", userId, "recurring_cost", id] as const,
  recurringCostCount: (userId: string) => ["ws", userId, "count", "recurring_costs"] as const,
  /** Share slug -> the share; the global copy is what the public page reads. */
  shares: (userId: string) => ["ws", userId, "share"] as const,
  share: (userId: string, slug: string) => ["ws", userId, "share", slug] as const,
  shareCount: (userId: string) => ["ws", userId, "count", "shares"] as const,
  publicShare: (slug: string) => ["share", slug] as const,
  /** Email-verification token hash -> {userId, expiresAt}; one-time, 24 hours. */
  emailVerification: (tokenHash: string) => ["email_verification", tokenHash] as const,
  userEmailVerifications: (userId: string) => ["ws", userId, "email_verification"] as const,
  userEmailVerification: (userId: string, tokenHash: string) =>
    ["ws", userId, "email_verification", tokenHash] as const,
  /** Billing customer id -> user id; the workspace entry is its back-reference. */
  billingCustomer: (customerId: string) => ["billing_customer", customerId] as const,
  userBillingCustomers: (userId: string) => ["ws", userId, "billing_customer"] as const,
  userBillingCustomer: (userId: string, customerId: string) =>
    ["ws", userId, "billing_customer", customerId] as const,
  /** A billing event id already applied (each is applied once); kept 30 days. */
  billingEvent: (eventId: string) => ["billing_event", eventId] as const,

  // Event hand-off on a KV without queues: events whose fan-out nobody has claimed yet
  outbox: () => ["outbox"] as const,
  outboxEntry: (eventId: string) => ["outbox", eventId] as const,
  /** A background job's lease: who runs it now, and until when. */
  lease: (job: string) => ["lease", job] as const,

  // Data layout (store/migrations/): which migrations the data has had
  /** `LayoutMarker`: the layout version (migrations applied, in list order) and who wrote it. */
  layout: () => ["layout"] as const,
  /** A running migration's progress: where its next batch starts (and its counts so far). */
  migrationCursors: () => ["layout_migration"] as const,
  migrationCursor: (id: string) => ["layout_migration", id] as const,

  // Platform-wide counters (health counts, landing stats)
  stat: (name: "users" | "orders" | "value_cents") => ["stats", name] as const,
  healthProbe: () => ["health", "probe"] as const,
  /** The landing page's figures as last taken (domain/service/landing.ts), one per UTC hour. */
  landingSnapshot: () => ["landing", "snapshot"] as const,
  /** A known text sealed with the secrets key: does the key this process has open this KV's secrets? */
  secretsCheck: () => ["secrets", "check"] as const,
};
