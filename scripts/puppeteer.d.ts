// deno-lint-ignore-file no-explicit-any
/**
 * The part of puppeteer-core's API this repository uses, declared here and attached to the
 * import with `@ts-types` (scripts/browser.ts). puppeteer-core's own declarations reference
 * `@types/node`, whose globals (webcrypto's CryptoKey) then replace Deno's in every
 * test and script type-checked with them: code that is right under Deno stops compiling.
 * Element callbacks take `any`: page code runs in the browser, not under Deno's types.
 */

export interface LaunchOptions {
  executablePath: string;
  headless?: boolean;
  userDataDir?: string;
  args?: string[];
}

export interface CDPSession {
  send(method: string, params?: Record<string, unknown>): Promise<any>;
  on(event: string, handler: (event: any) => void): void;
  detach(): Promise<void>;
}

export interface ConsoleMessage {
  type(): string;
  text(): string;
  location(): { url?: string; lineNumber?: number };
}

export interface HTTPRequest {
  url(): string;
  failure(): { errorText: string } | null;
  /** With request interception on: answer it here, or let it go to the network. */
  respond(response: { status: number; contentType?: string; body?: string }): Promise<void>;
  continue(): Promise<void>;
}

export interface JSHandle {
  jsonValue(): Promise<unknown>;
}

export interface WaitOptions {
  timeout?: number;
}

export interface Page {
  setViewport(viewport: { width: number; height: number }): Promise<void>;
  setDefaultTimeout(timeout: number): void;
  on(event: "console", handler: (message: ConsoleMessage) => void): this;
  on(event: "pageerror", handler: (error: unknown) => void): this;
  on(event: "requestfailed", handler: (request: HTTPRequest) => void): this;
  on(event: "request", handler: (request: HTTPRequest) => void): this;
  setRequestInterception(value: boolean): Promise<void>;
  evaluateOnNewDocument(source: string): Promise<unknown>;
  evaluate(expression: string): Promise<unknown>;
  createCDPSession(): Promise<CDPSession>;
  goto(
    url: string,
    options?: { waitUntil?: "load" | "domcontentloaded" | "networkidle0" | "networkidle2" },
  ): Promise<unknown>;
  url(): string;
  waitForSelector(selector: string, options?: WaitOptions): Promise<unknown>;
  waitForFunction(
    expression: string,
    options?: WaitOptions & { polling?: "raf" | "mutation" | number },
  ): Promise<JSHandle>;
  waitForNetworkIdle(options?: WaitOptions & { idleTime?: number }): Promise<void>;
  $eval<T>(selector: string, fn: (element: any) => T): Promise<Awaited<T>>;
  $$eval<T>(selector: string, fn: (elements: any[]) => T): Promise<Awaited<T>>;
  click(selector: string, options?: { count?: number }): Promise<void>;
  type(selector: string, text: string): Promise<void>;
  select(selector: string, ...values: string[]): Promise<string[]>;
  keyboard: { press(key: string): Promise<void> };
  screenshot(options: { path: string; fullPage?: boolean }): Promise<unknown>;
  close(): Promise<void>;
}

export interface BrowserContext {
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

export interface Browser {
  newPage(): Promise<Page>;
  createBrowserContext(): Promise<BrowserContext>;
  target(): { createCDPSession(): Promise<CDPSession> };
  close(): Promise<void>;
}

declare const puppeteer: { launch(options: LaunchOptions): Promise<Browser> };
export default puppeteer;
