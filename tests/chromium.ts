/**
 * Browser tests' helpers: Chromium from scripts/browser.ts, skipped where it is missing (never
 * in CI), and axe-core injected to scan for accessibility problems.
 */
import type { Page } from "../scripts/puppeteer.d.ts";
import axeSource from "axe-core/axe.min.js" with { type: "text" };
import { findChromium } from "../scripts/browser.ts";

export { launchBrowser, type TestBrowser, waitFor } from "../scripts/browser.ts";

/** Skip browser tests where Chromium is missing, except in CI, which must run them. */
export function browserSkip(test: string): boolean {
  const skip = !findChromium() && !Deno.env.get("CI");
  if (skip) console.warn(`${test}: skipped, Chromium is not installed (apt-get install chromium)`);
  return skip;
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Runs axe-core (evaluated over DevTools, which the page's CSP does not govern) on the page and
 * returns the serious and critical findings as readable lines.
 */
export async function axeFindings(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(
    `axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations)`,
  ) as AxeViolation[];
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) =>
      `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`
    );
}

/**
 * Waits until an element matching `selector` has `text` in its text (whitespace runs read as one
 * space). Not `waitForSelector("…::-p-text(…)")`: puppeteer re-checks that only on child-list and
 * attribute mutations, so a text the page rewrites in place (a count or a progress line that
 * Preact updates in its text node) is missed when it changes after the first check, and the wait
 * runs out though the page shows the text. This polls instead.
 */
export async function waitForText(page: Page, selector: string, text: string): Promise<void> {
  await page.waitForFunction(
    `[...document.querySelectorAll(${JSON.stringify(selector)})]
      .some((e) => e.textContent.replace(/\\s+/g, " ").includes(${JSON.stringify(text)}))`,
    { polling: 100 },
  );
}
