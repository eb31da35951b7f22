/**
 * The public share pages, outside `/api`: `GET /s/<slug>` (HTML with Open Graph and Twitter
 * card tags) and `GET /s/<slug>.png` (the card image). Both read the share's global copy, so
 * a deleted share is a 404 at once; neither shows anything the card does not.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { CARD_FONT, CARD_HEIGHT, CARD_WIDTH, cardSvg } from "../domain/insights/share_svg.ts";
import type { ShareCard } from "../domain/events/envelope.ts";
import { errors } from "../http/openapi.ts";
import { createRouter } from "../http/router.ts";
import { MAX_ID_LENGTH } from "../lib/ids.ts";
import { PngCache, renderPng } from "../lib/card_png.ts";
import { findPublicShare } from "../store/insights/shares.ts";

const TAGS = ["Shares"];
const SLUG = /^[0-9a-z]+$/;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page's own styles only; the product image may come from its shop (https). */
const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' https:";

function page(card: ShareCard): string {
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

const NOT_FOUND = "Share not found";

const SlugParam = z.object({
  slug: z.string().openapi({ example: "3f9a0c1d2b4e6a78", description: "The share's slug" }),
});

const pageRoute = createRoute({
  method: "get",
  path: "/s/{slug}",
  tags: TAGS,
  summary: "A share card's public page (HTML)",
  description: "With `og:title`, `og:description`, `og:image` (the card image) and " +
    "`twitter:card` tags. No token.",
  security: [],
  request: { params: SlugParam },
  responses: {
    200: { description: "The page", content: { "text/html": { schema: z.string() } } },
    ...errors(404),
  },
});

const imageRoute = createRoute({
  method: "get",
  path: "/s/{slug}.png",
  tags: TAGS,
  summary: "A share card's image (PNG, 1200 x 630)",
  description: "Drawn from an SVG with the fonts the service ships. No token.",
  security: [],
  request: { params: SlugParam },
  responses: {
    200: {
      description: "The card",
      content: { "image/png": { schema: z.string().openapi({ format: "binary" }) } },
    },
    ...errors(404),
  },
});

async function share(kv: Deno.Kv, slug: string): Promise<ShareCard | null> {
  if (slug.length > MAX_ID_LENGTH || !SLUG.test(slug)) return null;
  return (await findPublicShare(kv, slug))?.card ?? null;
}

const images = new PngCache();

const router = createRouter();
// Documented here; served by the handlers below (the image's path has a suffix after the
// parameter, which the router expresses as a pattern).
router.openAPIRegistry.registerPath(pageRoute);
router.openAPIRegistry.registerPath(imageRoute);

export const sharePageRoutes = router
  .get("/s/:file{[0-9a-z]+\\.png}", async (c) => {
    const slug = c.req.param("file").slice(0, -4);
    const card = await share(c.var.deps.kv, slug);
    if (!card) return c.json({ error: NOT_FOUND }, 404);
    const png = await images.get(`${slug} ${card.createdAt}`, () => {
      const footer = card.url.replace(/^https?:\/\//, "");
      return renderPng(cardSvg(card, card.kind, footer), CARD_FONT);
    });
    return c.body(png.slice().buffer, 200, {
      "content-type": "image/png",
      "cache-control": "no-cache",
    });
  })
  .get("/s/:slug", async (c) => {
    c.header("Content-Security-Policy", CSP);
    c.header("Cache-Control", "no-cache");
    const card = await share(c.var.deps.kv, c.req.param("slug"));
    if (!card) return c.json({ error: NOT_FOUND }, 404);
    return c.html(page(card), 200);
  });
