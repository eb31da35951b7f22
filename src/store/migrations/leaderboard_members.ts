import { onLeaderboard } from "../../domain/insights/leaderboard.ts";
import { keys } from "../keys.ts";
import type { BatchResult, Cursor, Migration, MigrationContext } from "./types.ts";
import { userBatch } from "./walk.ts";

const ACCOUNTS_PER_BATCH = 100;
/** Accounts per commit: each record is checked, and the lease takes one more check. */
const ACCOUNTS_PER_COMMIT = 8;

async function batch(ctx: MigrationContext, cursor: Cursor | null): Promise<BatchResult> {
  const { users, cursor: next } = await userBatch(ctx.kv, cursor, ACCOUNTS_PER_BATCH, ctx.skip);
  const listed = users.filter((u) => onLeaderboard(u.value));
  const present = await Promise.all(
    listed.map(async (u) => !!(await ctx.kv.get(keys.leaderboardMember(u.value.id))).versionstamp),
  );
  const missing = listed.filter((_, i) => !present[i]);
  let added = 0;
  for (let i = 0; i < missing.length; i += ACCOUNTS_PER_COMMIT) {
    const group = missing.slice(i, i + ACCOUNTS_PER_COMMIT);
    const op = ctx.kv.atomic();
    for (const user of group) op.check(user).set(keys.leaderboardMember(user.value.id), true);
    // An account changed since it was read (its own commit keeps the list): read again.
    if (!(await ctx.commit(op)).ok) return { done: false, cursor, counts: { added, conflicts: 1 } };
    added += group.length;
  }
  return {
    done: next === null,
    cursor: next,
    counts: { accounts: users.length, listed: listed.length, added },
  };
}

/** Accounts that turned public stats on before the list existed are put on it. */
export const leaderboardMembers: Migration = {
  id: "leaderboard-members",
  description: "put every account with public stats and a username on the leaderboard list",
  batch,
};
