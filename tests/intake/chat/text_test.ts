import { equal } from "node:assert/strict";
import { deepStrictEqual as eq } from "node:assert/strict";
import {
  cleanLines,
  cleanText,
  firstUrl,
  httpUrl,
  isNoValue,
} from "../../../src/intake/chat/text.ts";

Deno.test("spoilers are unwrapped, with or without inner spaces", () => {
  equal(cleanText("||C01839427715||"), "C01839427715");
  equal(cleanText("|| #902004417736520 ||"), "#902004417736520");
  equal(cleanText("||BBY Amex|| :flag_us:"), "BBY Amex");
  equal(cleanText("||`P0051293840`||"), "P0051293840");
});

Deno.test("markdown links keep their text, angle-bracket URLs their address", () => {
  equal(
    cleanText("[LEGO Icons Titanic 10294](https://www.target.com/p/-/A-1)"),
    "LEGO Icons Titanic 10294",
  );
  equal(cleanText('[#UND104221](<https://undefeated.com/account/orders/x> "Order")'), "#UND104221");
  equal(cleanText("see <https://example.com/a>"), "see https://example.com/a");
  equal(cleanText("[ATC](https://a.example/1) | [Cart](https://a.example/2)"), "ATC | Cart");
});

Deno.test("code spans, code blocks and emphasis markers are removed", () => {
  equal(cleanText("`BBY01-806512239784`"), "BBY01-806512239784");
  equal(cleanText("```\nSize 10\n```"), "Size 10");
  equal(cleanText("**Nike Air Force 1 '07**"), "Nike Air Force 1 '07");
  equal(cleanText("__Pokémon TCG: Mega Evolution__"), "Pokémon TCG: Mega Evolution");
  equal(cleanText("***bold italic*** ~~gone~~ *it* _it_"), "bold italic gone it it");
  equal(cleanText("**__nested__**"), "nested");
  equal(cleanText("snake_case_name stays"), "snake_case_name stays");
  equal(cleanText("\\*literal\\*"), "*literal*");
});

Deno.test("emoji, custom emoji, shortcodes and mentions are dropped; ©, ® and ™ stay", () => {
  equal(cleanText(":rocket:   Kodai Success   :rocket:"), "Kodai Success");
  equal(cleanText("<a:kodai:873246109384756224> Kodai Success"), "Kodai Success");
  equal(cleanText("🎉 Successful Checkout 🎉"), "Successful Checkout");
  equal(cleanText("⚙️ Mode"), "Mode");
  equal(cleanText("👍🏽 🇺🇸 Done"), "Done");
  equal(cleanText("<@123456789012345678> <@&12345> <#12345> @everyone <t:1700000000:F> hi"), "hi");
  equal(cleanText("Nike® Air™ © 2019"), "Nike® Air™ © 2019");
  equal(cleanText("Time 16:03:37"), "Time 16:03:37");
});

Deno.test("zero-width and other invisible characters vanish; odd spaces become spaces", () => {
  equal(cleanText("Pro\u200bduct"), "Product");
  equal(cleanText("\ufeffFinish Line\u2060"), "Finish Line");
  equal(cleanText("Size\u200c"), "Size");
  equal(cleanText("119,99\u00a0€"), "119,99 €");
  equal(cleanText("\u200b"), "");
});

Deno.test("block quotes, headings, subtext and bullets are stripped per line", () => {
  eq(
    cleanLines(
      "## 🎉 Order placed\n> **Site:** Pokemon Center US\n>>> quoted\n-# Checked out\n• 2x Tee\n- item\n\n",
    ),
    ["Order placed", "Site: Pokemon Center US", "quoted", "Checked out", "2x Tee", "item"],
  );
  eq(cleanLines(undefined), []);
});

Deno.test("no-value words, URLs", () => {
  for (const v of ["", "N/A", "n/a", "None", "-", "—", "unknown"]) equal(isNoValue(v), true, v);
  equal(isNoValue("OS"), false);
  equal(firstUrl("[Track](https://t.example/x?a=1) more"), "https://t.example/x?a=1");
  equal(firstUrl("no link"), undefined);
  equal(httpUrl("attachment://product.png"), undefined);
  equal(httpUrl("javascript:alert(1)"), undefined);
  equal(httpUrl("https://a.example/p.jpg"), "https://a.example/p.jpg");
  equal(httpUrl(`https://a.example/${"x".repeat(2000)}`), undefined);
});
