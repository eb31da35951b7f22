/**
 * Manual forwards (research/intake.md §2): finds the header blocks mail clients write above a
 * forwarded message (Gmail, Outlook desktop/web/new, Apple Mail, Thunderbird, Yahoo; English,
 * German, French, Spanish, Italian and Dutch labels) and returns the innermost forwarded
 * message: its sender, subject, date and the blocks after its header. Nested forwards repeat
 * the header; the last one in reading order is the store's.
 */
import type { Block } from "./html.ts";
import type { Letter } from "./letter.ts";
import type { Mailbox } from "./mime.ts";
import { foldForMatch } from "../text.ts";

type HeaderKind = "from" | "subject" | "date" | "to" | "cc";

const LABELS: Record<string, HeaderKind> = {};
const LABEL_WORDS: [HeaderKind, string[]][] = [
  [
    "from",
    ["from", "von", "de", "da", "van", "mittente", "expediteur", "remitente"]
      .concat(["remetente", "fra", "fran", "差出人", "送信者"]),
  ],
  [
    "subject",
    ["subject", "betreff", "objet", "asunto", "oggetto", "onderwerp", "sujet"]
      .concat(["assunto", "emne", "amne", "件名"]),
  ],
  ["date", [
    "date",
    "datum",
    "fecha",
    "data",
    "sent",
    "gesendet",
    "envoye",
    "enviado",
    "inviato",
    "verzonden",
    "enviada",
    "dato",
    "sendt",
    "skickat",
    "日付",
    "送信日時",
  ]],
  ["to", ["to", "an", "a", "para", "pour", "aan", "til", "till", "宛先"]],
  ["cc", ["cc", "kopie", "copie a", "kopie (cc)", "copia"]],
];
for (const [kind, words] of LABEL_WORDS) for (const w of words) LABELS[w] = kind;

const LABEL_ALTERNATION = Object.keys(LABELS).sort((a, b) => b.length - a.length)
  .map((w) => w.replace(/[()]/g, "\\$&")).join("|");
/** `From: x`, `*From:* x`, `De : x`, `Subject:\tx` (on folded text). */
const HEADER_LINE = new RegExp(`^\\*?(${LABEL_ALTERNATION})\\*?\\s*:\\*?\\s*(.*)$`);
/** Yahoo's plain text runs the labels together on one line. */
const RUN_TOGETHER =
  /(?=\b(?:From|To|Cc|Sent|Subject|Von|An|Gesendet|Betreff|De|À|Envoyé|Objet|Para|Enviado|Asunto):)/;

const SEPARATORS = [
  /^-{2,}\s*(?:forwarded message|original message|weitergeleitete nachricht|ursprungliche nachricht|message transfere|message transmis|mensaje reenviado|mensaje original|messaggio inoltrato|doorgestuurd bericht|message d'origine|mensagem encaminhada|mensagem original|videresendt (?:meddelelse|melding|besked)|vidarebefordrat meddelande|転送されたメッセージ|元のメッセージ)\s*-{2,}$/,
  /^(?:begin forwarded message|anfang der weitergeleiteten nachricht|debut du message reexpedie|debut du message transfere|inicio del mensaje reenviado|inizio messaggio inoltrato|begin doorgestuurd bericht|inicio da mensagem (?:re)?encaminhada|start pa videresendt (?:besked|meddelelse)|videresendt (?:besked|melding)|vidarebefordrat meddelande|転送されたメッセージ)\s*:$/,
  /^_{20,}$/,
];

/** Characters whose fold is `:` (`foldForMatch` of `：` is `:`); header lines need one. */
const COLON = /[:\u2A74\uFE13\uFE55\uFF1A]/;
/** Characters a separator line needs one of (after folding): `-`, `:` or `_`. */
const SEPARATOR_MARK = /[-:_\u2A74\uFE13\uFE55\uFF1A\uFE63\uFF0D\uFE33\uFE34\uFE4D-\uFE4F\uFF3F]/;

export function isForwardSeparator(text: string): boolean {
  if (!SEPARATOR_MARK.test(text)) return false;
  const folded = foldForMatch(text).trim();
  return folded.length < 80 && SEPARATORS.some((re) => re.test(folded));
}

interface HeaderPair {
  kind: HeaderKind;
  value: string;
}

/** The header pairs a block states, and how many blocks it used (a label cell takes its value cell). */
function headerPairs(blocks: Block[], i: number): { pairs: HeaderPair[]; used: number } {
  const b = blocks[i];
  if (b.text.length > 400 || !COLON.test(b.text)) return { pairs: [], used: 1 };
  const parts = b.text.split(RUN_TOGETHER).filter((p) => p.trim());
  const pairs: HeaderPair[] = [];
  for (const part of parts) {
    const m = HEADER_LINE.exec(foldForMatch(part.trim()));
    if (!m) return { pairs: [], used: 1 };
    const kind = LABELS[m[1]];
    // The value as written (not folded): everything after the label's colon.
    const value = part.slice(part.indexOf(":") + 1).replace(/^\*/, "").trim();
    if (value === "" && i + 1 < blocks.length && parts.length === 1) {
      const next = blocks[i + 1];
      const sameRow = b.cell && next.cell && b.cell.table === next.cell.table &&
        b.cell.row === next.cell.row;
      if (sameRow || kind === "from") return { pairs: [{ kind, value: next.text }], used: 2 };
    }
    pairs.push({ kind, value });
  }
  return { pairs, used: 1 };
}

/** A mailbox as forward headers write it: `Name <a@b>`, `Name [mailto:a@b]`, `"Name" <a@b>`, `a@b`. */
export function parseMailbox(value: string): Mailbox | null {
  const address = /[\w.+'%-]+@[\w-]+(?:\.[\w-]+)+/.exec(value)?.[0];
  const name = value.replace(/<[^>]*>|\[mailto:[^\]]*\]|\(mailto:[^)]*\)/gi, "")
    .replace(/[\w.+'%-]+@[\w-]+(?:\.[\w-]+)+/g, "")
    // Quotes and stars go; an apostrophe between two letters is part of the name (`L'Atelier`).
    .replace(/["*]|(?<!\p{L})'|'(?!\p{L})/gu, "").trim();
  if (!address && !name) return null;
  return { name, address: address?.toLowerCase() ?? "" };
}

export interface Forwarded {
  from?: Mailbox;
  subject?: string;
  date?: string;
  /** Index of the first block after the forwarded header. */
  start: number;
}

/** Header runs found, at most this many (a body of thousands of `To:` lines stays cheap). */
const MAX_RUNS = 20;

/** The innermost forwarded header in the blocks, or null when the message is not a forward. */
export function findForward(blocks: Block[]): Forwarded | null {
  let last: Forwarded | null = null;
  let runs = 0;
  for (let i = 0; i < blocks.length && runs < MAX_RUNS; i++) {
    // A separator line, or a client's quote container (`gmail_quote`, `#divRplyFwdMsg`...) around the run.
    const separated = (i > 0 && isForwardSeparator(blocks[i - 1].text)) || blocks[i].quote > 0;
    const run: HeaderPair[] = [];
    let j = i;
    while (j < blocks.length && run.length < 12) {
      const { pairs, used } = headerPairs(blocks, j);
      if (pairs.length === 0) break;
      run.push(...pairs);
      j += used;
    }
    if (run.length === 0) continue;
    const kinds = new Set(run.map((p) => p.kind));
    const from = run.find((p) => p.kind === "from");
    const mailbox = from ? parseMailbox(from.value) : null;
    const enough = kinds.has("from") && (kinds.has("subject") || kinds.has("date")) &&
      (kinds.size >= 3 || separated);
    if (enough && mailbox && (mailbox.address || separated)) {
      runs++;
      last = {
        from: mailbox,
        subject: run.find((p) => p.kind === "subject")?.value,
        date: run.find((p) => p.kind === "date")?.value,
        start: j,
      };
    }
    i = j - 1 + (j === i ? 1 : 0);
  }
  return last;
}

/** The forwarded letter inside `letter`, or `letter` itself when it is not a forward. */
export function unwrapForward(letter: Letter): { letter: Letter; forwarded: boolean } {
  const found = findForward(letter.blocks);
  if (!found) return { letter, forwarded: false };
  return {
    forwarded: true,
    letter: {
      ...letter,
      ...(found.from?.address ? { from: found.from } : {}),
      subject: found.subject ?? stripForwardPrefix(letter.subject),
      date: found.date ?? letter.date,
      blocks: letter.blocks.slice(found.start),
    },
  };
}

/** `Fwd: Fw: WG: TR: RV: I: Enc: Doorst: VS: VB: VL: 転送:` prefixes removed (they stack on double forwards). */
export function stripForwardPrefix(subject: string): string {
  return subject.replace(/^(?:\s*(?:fwd?|fw|wg|tr|rv|i|enc|doorst|vs|vb|vl|転送)\s*[:：]\s*)+/i, "")
    .trim();
}
