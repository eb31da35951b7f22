import { equal, ok } from "node:assert/strict";
import { isShareSlug, sharePage } from "../../src/domain/insights/share_page.ts";

Deno.test("isShareSlug: lower-case letters and digits, not longer than an id", () => {
  equal(isShareSlug("3f9a0c1d2b4e6a78"), true);
  equal(isShareSlug("3F9A"), false);
  equal(isShareSlug("a.png"), false);
  equal(isShareSlug(""), false);
  equal(isShareSlug("a".repeat(200)), false);
});

Deno.test("sharePage: card texts are escaped in the title, tags and list", () => {
  const html = sharePage({
    title: `<script>alert("x")</script>`,
    lines: ["Cost & sale", "it's <b>"],
    url: "https://orders.example.org/s/3f9a",
    imageUrl: `https://shop.example/p.png?a=1&b="2"`,
  });
  ok(!html.includes("<script>"));
  ok(html.includes("<title>&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;</title>"));
  ok(html.includes(`<meta property="og:image" content="https://orders.example.org/s/3f9a.png">`));
  ok(html.includes("<li>Cost &#38; sale</li><li>it&#39;s &#60;b&#62;</li>"));
  ok(html.includes(`src="https://shop.example/p.png?a=1&#38;b=&#34;2&#34;"`));
  ok(!sharePage({ title: "t", lines: [], url: "u" }).includes(`class="product"`));
});
