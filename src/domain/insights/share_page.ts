/**
 * The public page of a share card (`GET /s/<slug>`): HTML with Open Graph and Twitter card tags
 * around the card image, showing nothing the card does not. Pure: the route serves it.
 */
import { MAX_ID_LENGTH } from "../../lib/ids.ts";
import type { CardText } from "./share.ts";
import { CARD_HEIGHT, CARD_WIDTH } from "./share_svg.ts";

const SLUG = /^[0-9a-z]+$/;

/** Whether a slug has a share's shape (anything else is a 404 without a lookup). */
export function isShareSlug(slug: string): boolean {
  return slug.length <= MAX_ID_LENGTH && SLUG.test(slug);
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The Content-Security-Policy the page is served with: its own styles only; the product image
 * may come from its shop (https).
 */
export const SHARE_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' https:";

/** The page of one card, every card text escaped. */
export function sharePage(card: CardText & { url: string }): string {
  const title = escapeHtml(card.title);
  const description = escapeHtml(card.lines.join(" · "));
  const image = escapeHtml(`${card.url}.png`);
  const url = escapeHtml(card.url);
  const product = card.imageUrl
    ? `<img class="product" src="${escapeHtml(card.imageUrl)}" alt="" referrerpolicy="no-referrer">`
    : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<meta name="description" content="${description}">
<meta property="og:type" content="website">
<meta property="og:title" content="${title}">
<meta property="og:description" content="${description}">
<meta property="og:url" content="${url}">
<meta property="og:image" content="${image}">
<meta property="og:image:type" content="image/png">
<meta property="og:image:width" content="${CARD_WIDTH}">
<meta property="og:image:height" content="${CARD_HEIGHT}">
<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:title" content="${title}">
<meta name="twitter:description" content="${description}">
<meta name="twitter:image" content="${image}">
<style>
body{margin:0;font-family:system-ui,sans-serif;background:#0f172a;color:#e2e8f0}
main{max-width:720px;margin:0 auto;padding:32px 16px}
.card{width:100%;height:auto;border-radius:12px}
.product{max-width:160px;max-height:160px;border-radius:8px;float:right;margin-left:16px}
h1{font-size:1.6rem}
li{margin:.3rem 0}
</style>
</head>
<body>
<main>
<img class="card" src="${image}" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" alt="${title}">
${product}<h1>${title}</h1>
<ul>${card.lines.map((l) => `<li>${escapeHtml(l)}</li>`).join("")}</ul>
</main>
</body>
</html>
`;
}
