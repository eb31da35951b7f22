import { keys } from "../keys.ts";
import { backfillEntries } from "./entries.ts";
import type { Migration } from "./types.ts";

/** Orders stored before the tracking index existed get their entry (carrier answers, intake). */
export const trackingIndex: Migration = {
  id: "tracking-index",
  description: "index every order with a tracking number by that number",
  batch: backfillEntries(keys.trackingIndex),
};
