/**
 * The public share pages, outside `/api`: `GET /s/<slug>` (HTML with Open Graph and Twitter
 * card tags) and `GET /s/<slug>.png` (the card image). Both read the share's global copy, so
 * a deleted share is a 404 at once; neither shows anything the card does not.
 */
import { createRoute, z } from "@hono/zod-openapi";
import type { Handler } from "hono";
import { isShareSlug, SHARE_PAGE_CSP, sharePage } from "../../domain/insights/share_page.ts";
import { CARD_FONT, cardSvg } from "../../domain/insights/share_svg.ts";
import type { ShareCard } from "../../domain/events/envelope.ts";
import { errors } from "../../http/openapi.ts";
import type { AppEnv } from "../../http/env.ts";
import { createRouter } from "../../http/router.ts";
import { PngCache, renderPng } from "../../lib/card_png.ts";
import { findPublicShare } from "../../store/insights/shares.ts";

const TAGS = ["Shares"];

const NOT_FOUND = "Share not found";

const SlugParam = z.object({
  slug: z.string().openapi({ example: "3f9a0c1d2b4e6a78", description: "The share's slug" }),
});

const pageRoute = createRoute({
  method: "get",
  path: "/{slug}",
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
  path: "/{slug}.png",
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
  if (!isShareSlug(slug)) return null;
  return (await findPublicShare(kv, slug))?.card ?? null;
}

const images = new PngCache();

const router = createRouter();
// Documented here; served by the handlers below (the image's path has a suffix after the
// parameter, which the router expresses as a pattern).
router.openAPIRegistry.registerPath(pageRoute);
router.openAPIRegistry.registerPath(imageRoute);

const IMAGE_PATH = "/:file{[0-9a-z]+\\.png}";

export const getShareImage: Handler<AppEnv, typeof IMAGE_PATH> = async (c) => {
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
};

export const getSharePage: Handler<AppEnv, "/:slug"> = async (c) => {
  c.header("Content-Security-Policy", SHARE_PAGE_CSP);
  c.header("Cache-Control", "no-cache");
  const card = await share(c.var.deps.kv, c.req.param("slug"));
  if (!card) return c.json({ error: NOT_FOUND }, 404);
  return c.html(sharePage(card), 200);
};

export const sharePageRoutes = router
  .get(IMAGE_PATH, getShareImage)
  .get("/:slug", getSharePage);
