/**
 * The skipping tokenizer must call back exactly as htmlparser2's own does: same callbacks, same
 * order, same offsets and code points, on awkward HTML, on every fixture's HTML and on random
 * HTML-ish text, written whole or in chunks.
 */
import { deepEqual, notEqual } from "node:assert/strict";
import { Tokenizer } from "htmlparser2";
import { FastTokenizer } from "../../../src/intake/email/html_tokenizer.ts";
import { parseMime } from "../../../src/intake/email/mime.ts";

type Options = ConstructorParameters<typeof Tokenizer>[0];
type Callbacks = ConstructorParameters<typeof Tokenizer>[1];

const NAMES = [
  "onattribdata",
  "onattribentity",
  "onattribend",
  "onattribname",
  "oncdata",
  "onclosetag",
  "oncomment",
  "ondeclaration",
  "onend",
  "onopentagend",
  "onopentagname",
  "onprocessinginstruction",
  "onselfclosingtag",
  "ontext",
  "ontextentity",
] as const;

/** Every callback as `[name, ...arguments]`, from one tokenizer class over the chunks. */
function calls(Class: typeof Tokenizer, chunks: string[], foreign = false): unknown[][] {
  const out: unknown[][] = [];
  const cbs: Record<string, unknown> = { isInForeignContext: () => foreign };
  for (const name of NAMES) cbs[name] = (...args: unknown[]) => out.push([name, ...args]);
  const options: Options = { decodeEntities: true };
  const tokenizer = new Class(options, cbs as unknown as Callbacks);
  for (const chunk of chunks) tokenizer.write(chunk);
  tokenizer.end();
  return out;
}

function same(html: string, label: string): void {
  deepEqual(calls(FastTokenizer, [html]), calls(Tokenizer, [html]), label);
  const cut = [html.slice(0, html.length / 3), html.slice(html.length / 3, html.length / 2)];
  const chunks = [...cut, html.slice(html.length / 2)];
  deepEqual(calls(FastTokenizer, chunks), calls(Tokenizer, chunks), `${label} (chunks)`);
  deepEqual(calls(FastTokenizer, [html], true), calls(Tokenizer, [html], true), `${label} (svg)`);
}

const AWKWARD = [
  "",
  "plain text only",
  "a &amp; b &nbsp c &notin; d &notit; &#65;&#x42;&#0; &#; &# &unknownentity; &amp",
  "&&&&&&&& <p>x</p>&",
  '<a href="https://x.example/?a=1&amp;b=2&copy=3&lt=4">t&eacute;l</a>',
  "<a href='single &quot; quoted' title=unquoted&amp;x data-x = \"spaced\">x</a>",
  '<img src="a.jpg" alt="">< p>not a tag</ p><p/>',
  "<!-- a comment -- with dashes --><!----><!--><!---><!-- unclosed",
  "<![CDATA[ raw <b> ]]><?php echo 1 ?><!DOCTYPE html><!doctypex><!x>",
  "<script>if (a < b && c) { x = '&amp;' }</script><style>p{x:1}</style >",
  "<title>a &amp; b < c</title><textarea>&lt;x&gt;</textarea>",
  "<xmp><b>&amp;</b></xmp><iframe>&lt;</iframe><noembed>x</noembed><noframes>y</noframes>",
  "<plaintext><p>everything is text &amp; stays</p>",
  "<svg><title>in svg &amp;</title><![CDATA[cdata]]></svg>",
  '<div class="a" "junk" =oops / >x</div >',
  '<p attr="unterminated',
  "<p attr='unterminated &amp",
  "text ending in an entity &am",
  "<sup>$</sup>6<sup>1&#50;</sup>",
  '<TD STYLE="DISPLAY:NONE">Upper</TD><BR/></Br>',
  "\u00A0\uD83D\uDE00 &#128512; &#xD800; &#1114112; &NotEqualTilde; &acE;",
];

Deno.test("the skipping tokenizer calls back like htmlparser2's on awkward HTML", () => {
  notEqual(FastTokenizer, Tokenizer, "htmlparser2's internals are where the fast path expects");
  for (const [i, html] of AWKWARD.entries()) same(html, `case ${i}: ${html.slice(0, 40)}`);
});

Deno.test("the skipping tokenizer calls back like htmlparser2's on every fixture's HTML", async () => {
  for await (const file of emlFiles("tests/fixtures/email")) {
    const parsed = await parseMime(await Deno.readFile(file));
    if (!parsed.ok) continue;
    for (const html of parsed.message.html) same(html, file);
  }
});

Deno.test("the skipping tokenizer calls back like htmlparser2's on random HTML-ish text", () => {
  const pieces = [
    "<",
    ">",
    "&",
    "&amp;",
    "&nbsp",
    "&#",
    "&#x4",
    "1",
    ";",
    '"',
    "'",
    "=",
    "/",
    " ",
    "\n",
    "a",
    "p",
    "<a href=",
    "</",
    "<!--",
    "-->",
    "<script>",
    "</script>",
    "<title>",
    "<svg>",
    "x",
  ];
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let n = 0; n < 3000; n++) {
    let html = "";
    const length = 1 + Math.floor(random() * 40);
    for (let i = 0; i < length; i++) html += pieces[Math.floor(random() * pieces.length)];
    same(html, JSON.stringify(html));
  }
});

async function* emlFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* emlFiles(path);
    else if (entry.name.endsWith(".eml")) yield path;
  }
}
