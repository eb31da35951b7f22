/**
 * Headless Chromium driven with puppeteer-core, for the browser tests and the dashboard
 * benchmark: Debian's `chromium` on a fresh profile with the flags of the environment notes,
 * every error a page reports collected (console errors, uncaught exceptions, failed loads, CSP
 * violations), downloads kept in a fresh folder.
 */
import { join } from "node:path";
// @ts-types="./puppeteer.d.ts"
import puppeteer from "puppeteer-core";
import type { Browser, Page } from "./puppeteer.d.ts";

const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function findChromium(): string | null {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    for (const name of ["chromium", "chromium-browser"]) {
      const path = join(dir, name);
      try {
        if (Deno.statSync(path).isFile) return path;
      } catch {
        // Not in this directory.
      }
    }
  }
  return null;
}

export interface TestBrowser extends AsyncDisposable {
  browser: Browser;
  /** A new page whose errors land in `errors`. */
  page(viewport?: { width: number; height: number }): Promise<Page>;
  /** Every error any page reported so far. */
  errors: string[];
  /** A fresh folder downloads go to. */
  downloads: string;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<TestBrowser> {
  const chromium = findChromium();
  if (!chromium) throw new Error("Chromium is not installed (apt-get install chromium)");
  const profile = await Deno.makeTempDir({ prefix: "chromium-profile-" });
  const downloads = await Deno.makeTempDir({ prefix: "chromium-downloads-" });
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    userDataDir: profile,
    args: FLAGS,
  });
  // Downloads land in `downloads`; set on a browser-wide session that lives as long as the
  // browser (a page's session resets it when the page closes).
  const cdp = await browser.target().createCDPSession();
  await cdp.send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: downloads });
  const errors: string[] = [];
  const close = async () => {
    await browser.close();
    await Deno.remove(profile, { recursive: true });
    await Deno.remove(downloads, { recursive: true });
  };
  return {
    browser,
    errors,
    downloads,
    async page(viewport = { width: 1440, height: 900 }) {
      const page = await browser.newPage();
      // Puppeteer's 30 s default is a whole workflow step on a busy 2-core machine, where a
      // dashboard test has been seen to need more; a real fault still fails, a minute later.
      page.setDefaultTimeout(60_000);
      await page.setViewport(viewport);
      page.on("console", (m) => {
        if (m.type() !== "error" && m.type() !== "assert") return;
        // Chromium logs every 4xx answer; the API's (a wrong password, a refused URL) are part
        // of the workflows under test and shown by the page. Any other failed load counts.
        const api = new URL(m.location().url ?? "about:blank", "http://x").pathname.startsWith(
          "/api/",
        );
        if (api && m.text().startsWith("Failed to load resource: the server responded")) return;
        errors.push(`console: ${m.text()} ${m.location().url ?? ""}`.trim());
      });
      page.on("pageerror", (e) => errors.push(`exception: ${e instanceof Error ? e.message : e}`));
      page.on("requestfailed", (r) => {
        // A download handed to the browser shows as an aborted navigation; nothing else may fail.
        if (r.failure()?.errorText !== "net::ERR_ABORTED") {
          errors.push(`failed: ${r.url()} ${r.failure()?.errorText}`);
        }
      });
      // CSP violations are also reported to the page; keep them where the test can see them.
      await page.evaluateOnNewDocument(`addEventListener("securitypolicyviolation", (e) =>
        console.error("CSP violation: " + e.violatedDirective + " " + e.blockedURI));`);
      return page;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** Polls `poll` until it returns a value other than null. */
export async function waitFor<T>(
  poll: () => T | null | Promise<T | null>,
  what: string,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await poll();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
