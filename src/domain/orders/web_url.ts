/**
 * The one rule for a link an order keeps (`imageUrl`, `trackingUrl`), whoever gives it: the
 * API's schema, the chat reader and the ingest seam (`webLinksOnly`, domain/orders/order.ts) all ask
 * here. Anything else (`javascript:`, `data:`, `file:` ...) would reach webhooks, the export,
 * chat embeds and every client that makes a link or an image of it.
 */

/** The longest link kept. */
export const WEB_URL_MAX = 2000;

/** An absolute `http:` or `https:` URL that parses, at most {@link WEB_URL_MAX} characters. */
export function isWebUrl(text: string): boolean {
  return text.length <= WEB_URL_MAX && /^https?:\/\//i.test(text) && URL.canParse(text);
}
