/**
 * The community feed: a chat-platform webhook the operator configures (`COMMUNITY_FEED_URL`, so
 * not under the private-address rule), where checkouts of workspaces with public stats are
 * mirrored under a fixed sender name (`COMMUNITY_FEED_NAME`). The body is built from the item's
 * four public values only (`domain/chat/outgoing.ts` `feedPost`).
 */
import type { Config } from "../config.ts";
import { type FeedItem, feedPost } from "../domain/chat/outgoing.ts";
import { UpstreamError } from "../errors.ts";
import { callUpstream } from "./upstream.ts";

const SERVICE = "Community feed";

/** Posts one item; an unreachable feed or a non-2xx answer is an `UpstreamError`. */
export async function postToCommunityFeed(
  config: Config["communityFeed"],
  item: FeedItem,
): Promise<void> {
  if (!config.url) return;
  const answer = await callUpstream(SERVICE, config.url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(feedPost(item, config.name)),
  });
  if (answer.status < 200 || answer.status > 299) {
    throw new UpstreamError(SERVICE, `${SERVICE} answered HTTP ${answer.status}`);
  }
}
