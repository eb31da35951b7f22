/**
 * SVG to PNG with resvg (WebAssembly, `@resvg/resvg-wasm`), using only the fonts the service
 * ships (Inter, OFL, from `@expo-google-fonts/inter`): no system fonts, so the card looks the
 * same on every machine, offline and in the compiled binary. The Wasm module and the fonts are
 * read from the npm packages on first use.
 *
 * Rendering is synchronous CPU work (100 ms or more for a card), so renders run one at a time
 * and finished images are kept in a small cache.
 */
import { initWasm, Resvg } from "@resvg/resvg-wasm";

const FILES = [
  "@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf",
  "@expo-google-fonts/inter/700Bold/Inter_700Bold.ttf",
];

let loaded: Promise<Uint8Array[]> | null = null;

function load(): Promise<Uint8Array[]> {
  loaded ??= (async () => {
    const read = (specifier: string) => Deno.readFile(new URL(import.meta.resolve(specifier)));
    await initWasm(await read("@resvg/resvg-wasm/index_bg.wasm"));
    return await Promise.all(FILES.map(read));
  })();
  return loaded;
}

let queue: Promise<unknown> = Promise.resolve();

/** Renders an SVG to PNG bytes, after any render already under way. */
export function renderPng(svg: string, fontFamily: string): Promise<Uint8Array> {
  const run = queue.then(async () => {
    const fonts = await load();
    const resvg = new Resvg(svg, {
      font: { fontBuffers: fonts, defaultFontFamily: fontFamily, loadSystemFonts: false },
    });
    try {
      return resvg.render().asPng();
    } finally {
      resvg.free();
    }
  });
  queue = run.catch(() => {});
  return run;
}

/** Rendered images by key, least recently used dropped first. */
export class PngCache {
  #entries = new Map<string, Promise<Uint8Array>>();

  constructor(private readonly max = 200) {}

  get(key: string, make: () => Promise<Uint8Array>): Promise<Uint8Array> {
    let entry = this.#entries.get(key);
    if (entry) this.#entries.delete(key);
    else {
      entry = make();
      entry.catch(() => this.#entries.delete(key));
    }
    this.#entries.set(key, entry);
    if (this.#entries.size > this.max) this.#entries.delete(this.#entries.keys().next().value!);
    return entry;
  }
}
