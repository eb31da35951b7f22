/**
 * The readers' output over whole folders, one JSON line per message, so that a change meant to
 * make reading cheaper can be shown to change nothing it reads: take a snapshot before, one
 * after, and compare them byte for byte.
 *
 *   deno run -A scripts/bench/reader_snapshot.ts out.jsonl [dir...]
 *
 * Without folders it reads the repository's fixtures (tests/fixtures/email, chat, learning) and
 * ../shared/corpus/labeled. Every `.eml` under a folder is read by `readEmail` (its bytes, and
 * when they differ the bytes an import would carry: the text a client reads, UTF-8 else
 * windows-1252, encoded again); every chat post (`.json` with a sibling `.expected.json`, or a
 * corpus' `chat/*.json`, or a `.multipart` form) by `readChatPost`. Lines are sorted by path.
 */
import { join, relative } from "node:path";
import { readEmail } from "../../src/intake/email/read.ts";
import { readChatPost } from "../../src/intake/chat/read.ts";
import { chatPostOfForm } from "../../src/intake/chat_form.ts";

const NOW = Date.parse("2026-11-01T00:00:00Z");
const DEFAULT_DIRS = [
  "tests/fixtures/email",
  "tests/fixtures/chat",
  "tests/fixtures/learning",
  "../shared/corpus/labeled",
];

async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) out.push(...await files(path));
    else out.push(path);
  }
  return out;
}

/** The bytes `POST /api/email/import` gets for a file sent as JSON text. */
function asImported(bytes: Uint8Array): Uint8Array {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    text = new TextDecoder("windows-1252").decode(bytes);
  }
  return new TextEncoder().encode(text);
}

const sameBytes = (a: Uint8Array, b: Uint8Array) =>
  a.length === b.length && a.every((v, i) => v === b[i]);

async function chatBody(path: string, bytes: Uint8Array<ArrayBuffer>): Promise<unknown> {
  if (!path.endsWith(".multipart")) return JSON.parse(new TextDecoder().decode(bytes));
  const text = new TextDecoder("latin1").decode(bytes);
  const boundary = text.slice(0, text.search(/\r?\n/)).replace(/^--/, "");
  const form = await new Request("http://x/", {
    method: "POST",
    body: bytes,
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  }).formData();
  const outcome = await chatPostOfForm(Object.fromEntries(form.entries()));
  return outcome.ok ? outcome.body : { refused: outcome.error };
}

const isChatPost = (path: string) =>
  path.endsWith(".multipart") ||
  (path.endsWith(".json") && !path.endsWith(".expected.json") &&
    !path.endsWith("expected.json") && /(^|\/)chat\//.test(path));

async function snapshot(dirs: string[]): Promise<string[]> {
  const lines: string[] = [];
  for (const dir of dirs) {
    const label = dir.replace(/\/$/, "");
    for (const path of (await files(dir)).sort()) {
      const name = `${label}/${relative(dir, path)}`;
      const bytes = await Deno.readFile(path);
      if (path.endsWith(".eml")) {
        const read = await readEmail(bytes, { now: NOW });
        lines.push(JSON.stringify({ name, read }));
        const imported = asImported(bytes);
        if (!sameBytes(imported, bytes)) {
          const again = await readEmail(imported, { now: NOW });
          lines.push(JSON.stringify({ name: `${name} (imported)`, read: again }));
        }
      } else if (isChatPost(path)) {
        const body = await chatBody(path, bytes);
        lines.push(JSON.stringify({ name, read: readChatPost(body) }));
      }
    }
  }
  return lines;
}

if (import.meta.main) {
  const [out, ...dirs] = Deno.args;
  if (!out) {
    console.error("usage: reader_snapshot.ts out.jsonl [dir...]");
    Deno.exit(2);
  }
  const lines = await snapshot(dirs.length ? dirs : DEFAULT_DIRS);
  await Deno.writeTextFile(out, lines.join("\n") + "\n");
  console.log(`${lines.length} readings written to ${out}`);
}
