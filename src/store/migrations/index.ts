/**
 * Every migration of the data layout, in the order they run. The layout version of a store is
 * the number of them it has had; a release knows `MIGRATIONS.length` and refuses a store with
 * more. To add one: a module exporting a `Migration` (types.ts), appended here. Never reorder,
 * remove or rename an entry: stores record the ids they have had.
 */
import { leaderboardMembers } from "./leaderboard_members.ts";
import { shippedAt } from "./shipped_at.ts";
import { trackingIndex } from "./tracking_index.ts";
import { searchIndex } from "./search_index.ts";
import type { Migration } from "./types.ts";

export const MIGRATIONS: readonly Migration[] = [
  trackingIndex,
  leaderboardMembers,
  shippedAt,
  searchIndex,
];

/** The layout version this release writes and reads. */
export const LAYOUT_VERSION = MIGRATIONS.length;
