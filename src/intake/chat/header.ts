/**
 * Is a post a checkout? Decided from header text only (a title, an author name, the first line
 * of a description, the first line of `content`), never from field names or values: decline
 * posts reuse the success field set, and product names contain `oos` (Ultraboost) or `error`
 * (Terror). Words match whole; a failure or non-checkout word in a header wins over success.
 */
import type { ChatEmbed } from "../../domain/intake/chat_embed.ts";
import { cleanLines, cleanText } from "./text.ts";

/** Why a post is not a checkout, with the header words that say so. */
const NOT_CHECKOUT: readonly [string, RegExp][] = [
  [
    "decline",
    /\b(?:declined?|fail(?:ed|ure|s)?|unsuccessful|error|denied|rejected|cancell?ed|blocked|shape ?block(?:ed)?|voided|refunded)\b/,
  ],
  // The same in the other languages bots are set to (DE, FR, ES, NL, IT, JA): letters, not
  // `\b`, bound the words. A negated success ("nicht erfolgreich") is a failure.
  [
    "decline",
    /(?<!\p{L})(?:fehlgeschlagen|abgelehnt|nicht erfolgreich(?:e[rsnm]?)?|fehler|storniert|échec|échoué|refusée?|annulée?|non abouti|fallid[oa]|rechazad[oa]|cancelad[oa]|no completad[oa]|mislukt|geweigerd|niet gelukt|geannuleerd|fallit[oa]|rifiutat[oa]|non riuscit[oa]|non completat[oa]|annullat[oa])(?!\p{L})|失败|失敗|エラー|拒否|キャンセル/u,
  ],
  ["out of stock", /\b(?:out of stock|oos|sold out|unavailable)\b/],
  [
    "out of stock",
    /(?<!\p{L})(?:ausverkauft|nicht (?:mehr )?(?:verfügbar|vorrätig)|épuisée?|rupture de stock|agotad[oa]|sin stock|fuera de stock|nicht auf lager|hors stock|indisponible|niet op voorraad|uitverkocht|niet (?:meer )?beschikbaar|esaurit[oa]|non disponibile)(?!\p{L})|在庫切れ|売り切れ|完売|缺货/u,
  ],
  [
    "monitor",
    /(?<!\p{L})(?:wieder (?:verfügbar|auf lager)|jetzt verfügbar|neues produkt|de nouveau (?:en stock|disponible)|réassort|nouveau produit|(?:de nuevo|otra vez) disponible|nuevo producto|weer (?:op voorraad|beschikbaar)|nieuw product|di nuovo disponibile|nuovo prodotto)(?!\p{L})|再入荷|新商品/u,
  ],
  [
    "monitor",
    /\b(?:monitors?|restock(?:ed|s|ing)?|(?:back )?in stock|available|new (?:product|item|release|drop)s?|price (?:drop|change)|password page)\b/,
  ],
  ["raffle", /\b(?:raffles?|entered|entry|entries|draw)\b/],
  ["queue", /\b(?:queued?|queues|waiting|splash|in line)\b/],
  [
    "task status",
    /\b(?:tasks?|started|starting|stopped|monitoring|carted|added to cart|login successful|successful(?:ly)? log(?:ged)? ?in|logged in|signed in|accounts? (?:created|generated)|generated)\b/,
  ],
  [
    "queue",
    /(?<!\p{L})(?:warteschlange|file d'attente|en cola|cola de espera|wachtrij|in coda)(?!\p{L})|順番待ち|キュー|排队/u,
  ],
  [
    "task status",
    /(?<!\p{L})(?:im warenkorb|in den warenkorb|ajouté au panier|dans le panier|añadido al carrito|en el carrito|in (?:de )?winkelwagen|aggiunto al carrello|nel carrello)(?!\p{L})|カートに追加|加入购物车/u,
  ],
  ["captcha", /\b(?:captchas?|harvester|solve|solving)\b/],
  ["test", /\b(?:test|testing)\b|(?<!\p{L})(?:testnachricht|prueba|essai)(?!\p{L})|テスト|测试/u],
  [
    "announcement",
    /\b(?:updates?|updated|released?|is live|new version|version|changelog|announcement|maintenance|download)\b/,
  ],
];

/** Success headers; the match covers the whole phrase so what follows can name the store. */
const SUCCESS: readonly RegExp[] = [
  /\b(?:successful(?:ly)?|success)\b(?:\s+(?:checkout|checked out|order|purchase))?(?:\s+(?:placed|complete[d]?))?/,
  /\b(?:checkout|purchase) (?:complete[d]?|confirmed|done)\b/,
  /\bchecked out\b/,
  /\bpurchased\b/,
  /\b(?:copped|secured)\b/,
  // Adjectives take their inflected forms (`Erfolgreicher Checkout`, `Succesvolle aankoop`).
  /(?<!\p{L})(?:erfolgreich(?:e[rsnm]?)?|réussie?s?|exitos[oa]s?|éxito|succès|gelukt|geslaagde?|succesvolle?|riuscit[oaie]|successo|sucesso|lykkedes|vellykket|lyckad|lyckades|onnistui)(?!\p{L})|成功/u,
  // Order placed, bought: DE, FR, ES, NL, IT, PT, DA, NO, SV, FI, JA.
  /(?<!\p{L})(?:bestellung (?:aufgegeben|abgeschlossen|bestätigt)|bestellt|gekauft|kauf abgeschlossen|commande (?:passée|validée|confirmée|effectuée)|achat (?:effectué|confirmé)|pedido (?:realizado|confirmado|completado)|compra (?:realizada|completada|confirmada)|bestelling (?:geplaatst|bevestigd)|besteld|gekocht|aankoop voltooid|ordine (?:effettuato|confermato|completato)|acquisto (?:completato|effettuato)|acquistato|compra (?:concluída|aprovada)|pedido (?:concluído|aprovado)|køb (?:gennemført|fuldført|bekræftet)|ordre (?:gennemført|bekræftet|bekreftet|fullført|plassert)|kjøp (?:fullført|gjennomført)|köp (?:genomfört|slutfört)|order (?:lagd|genomförd)|tilaus (?:tehty|vahvistettu)|ostos (?:tehty|onnistui))(?!\p{L})|(?:購入|注文|決済|チェックアウト)が?完了|注文確定|購入しました|下单成功/u,
];

/** A store's own order notifications (or an inbox tool's): `New order #1`, `Order #1 placed`. */
const ORDER_NOTICE: readonly RegExp[] = [
  /\bnew order\b/,
  /(?<!\p{L})(?:neue bestellung|nouvelle commande|nuevo pedido|nieuwe bestelling|nuovo ordine)(?!\p{L})|新規注文|新しい注文/u,
  /\border\b[^|]{0,40}?\bplaced\b/,
  /\border (?:confirmed|confirmation|complete[d]?|submitted|received|paid)\b/,
];

/** Status news in a header: an inbox tool's shipping and delivery notices. */
const SHIPPED =
  /\b(?:shipped|dispatched|out for delivery|on (?:its|the) way|in transit)\b|(?<!\p{L})(?:versandt|verschickt|expédiée?|enviad[oa]|verzonden|spedit[oa])(?!\p{L})|発送/u;
const DELIVERED =
  /\bdelivered\b|(?<!\p{L})(?:zugestellt|geliefert|livrée?|entregad[oa]|bezorgd|consegnat[oa])(?!\p{L})|配達完了|お届け済み/u;

/** The status signals a post's header lines carry. */
export function headerSignals(lines: readonly string[]): { shipped?: true; delivered?: true } {
  const text = lines.join("\n").toLowerCase();
  return {
    ...(SHIPPED.test(text) ? { shipped: true } : {}),
    ...(DELIVERED.test(text) ? { delivered: true } : {}),
  };
}

/** Words that hint at a checkout without saying it succeeded. */
const WEAK = /\b(?:checkout|order|purchase)\b/;

/** The word that names a checkout itself, in a header with no word of its outcome. */
const CHECKOUT_WORD = /(?<!\p{L})check-?out(?!\p{L})/iu;

/** Whether a header line names the checkout itself (`Bot | Checkout`). */
export const namesCheckout = (lines: readonly [HeaderPlace, string][]) =>
  lines.some(([, line]) => CHECKOUT_WORD.test(line));

/** `Success: <product>`: the words before the colon are the header, the rest a product. */
const SUCCESS_LABEL =
  /^(success(?:ful(?:ly)?)?(?: checkout)?|checked out|copped)\s*[:\-–—]\s+(.+)$/i;

/**
 * `Checked out <product> on <store>`: a verb that takes the product as its object, at the start
 * of the line (`Successfully checked out Dunk Low from Nike US!`). Only these verbs: after
 * `Successful Checkout` a word is a title's (`Notification`), not a product.
 */
const CHECKED_OUT_OBJECT =
  /^(?:successfully\s+)?(?:checked out|purchased|copped|secured|bought)\s+(?![|•:@~\-–—(\[]|(?:on|at|from|in|for|with|again|twice|now|today|instantly|quickly|fast|the bag)\b)(.+?)(?:\s+(?:on|at|from|@)\s+(.+?))?[\s!.]*$/i;

/**
 * The same verbs in the passive, the product their subject: `Kith × Columbia Bugaboo Jacket has
 * been successfully checked out.` A subject that is a pronoun or the cart itself names nothing.
 */
const CHECKED_OUT_SUBJECT =
  /^(?!(?:your|my|the|this|that|it|its|order|item|items|cart|checkout|task|product)\b)(.+?)\s+(?:has been|have been|was|were)\s+(?:successfully\s+)?(?:checked out|purchased|copped|secured|bought)(?:\s+(?:on|at|from|@)\s+(.+?))?[\s!.]*$/i;

/** `a task`, `task #3`, `your task` right before a checkout verb in the past. */
const TASK_SUBJECT =
  /\b(?:(?:a|the|your|one)\s+)?tasks?(?:\s+#?\d{1,6})?(?=\s+(?:has\s+|have\s+)?(?:successfully\s+)?(?:checked out|purchased|copped|secured)\b)/g;

/**
 * A bot's one-line report with its own name as the subject: `Vex checked out <product>
 * (<variant>) on <store> for <price> — order <number>`. A person's sentence in the channel
 * reads the same up to the product, so this one counts only with an order number (a bot's
 * mark) and never with a pronoun as its subject.
 */
const NAMED_SUBJECT_SENTENCE =
  /^(?!(?:i|we|you|he|she|they|it|not|never|nobody|someone|somebody|who)\b)[\p{L}\p{N}_.-]{2,32}\s+(?:successfully\s+)?(?:checked out|purchased|copped|secured|bought)\s+(.+?)(?:\s+\([^()]{1,80}\))?(?:\s+(?:on|at|from|@)\s+(.+?))?(?:\s+for\s+([^\s—–,|]{2,20}))?\s*[—–|,-]\s*order\s*(?:#|no\.?|number|id)?\s*:?\s*#?([a-z0-9][a-z0-9-]{2,40})(?![\p{L}\p{N}])/iu;

/** A place named after a checkout verb, then its price, a count in brackets, a dashed remark. */
const PLACE_TAIL =
  /^(.+?)(?:\s+for\s+([^\s—–,|()]{2,20}))?(\s*\((?:x|qty:?)\s*\d{1,5}\))?(?:\s*[—–|]\s*.*|\s+-\s+.*)?$/i;

/** Money beyond doubt in a sentence: a currency sign or code next to the figure. */
const SENTENCE_MONEY = /^(?:[$€£¥]\s?\d[\d.,]*|\d[\d.,]*\s?(?:[$€£¥]|[A-Z]{3}))$/;

export type HeaderVerdict =
  | { kind: "success"; notice: boolean; text: string; rest: string }
  | { kind: "not_checkout"; category: string; word: string }
  | { kind: "weak" }
  | { kind: "none" };

/** A success line that names its product (and maybe its store and price). */
function productSuccess(
  line: string,
  product: string,
  store: string | undefined,
  price: string,
): HeaderVerdict & { product: string; price?: string } {
  return {
    kind: "success",
    notice: false,
    text: line,
    rest: store ? ` on ${store}` : "",
    product,
    ...(price ? { price } : {}),
  };
}

/** The verdict of one line of header text (already cleaned). */
export function judgeLine(line: string): HeaderVerdict & { product?: string; price?: string } {
  const labelled = SUCCESS_LABEL.exec(line);
  if (labelled) {
    return { kind: "success", notice: false, text: line, rest: "", product: labelled[2] };
  }
  // A task that is the subject of a checkout verb (`Your task #12 has checked out successfully!`) is the
  // bot's word for the checkout, not a task-status notice: the noun is dropped before judging.
  const lower = line.toLowerCase().replace(TASK_SUBJECT, (m) => " ".repeat(m.length));
  for (const [category, pattern] of NOT_CHECKOUT) {
    const found = pattern.exec(lower);
    if (found) return { kind: "not_checkout", category, word: found[0] };
  }
  // Failure words above win over these sentences too (`… — order 123 declined`).
  const sentence = NAMED_SUBJECT_SENTENCE.exec(line);
  if (sentence && /\d/.test(sentence[4]) && judgeLine(sentence[1]).kind === "none") {
    const [, product, store, price] = sentence;
    return productSuccess(line, product, store, price && SENTENCE_MONEY.test(price) ? price : "");
  }
  const [, object, place] = CHECKED_OUT_OBJECT.exec(line) ?? CHECKED_OUT_SUBJECT.exec(line) ?? [];
  // `… on Target for $26.94 (Qty 2) — Order 9120…`: the store ends where its price, a count in
  // brackets or a dash begins; the count belongs to the product, and a price said for several
  // pieces may be their sum: no price then.
  const tail = place ? PLACE_TAIL.exec(place) : null;
  const store = tail ? tail[1] : place;
  const price = tail?.[2] && !tail[3] && SENTENCE_MONEY.test(tail[2]) ? tail[2] : "";
  const product = object && `${object.trim()}${tail?.[3] ?? ""}`;
  if (
    product && (product.match(/\p{L}/gu)?.length ?? 0) >= 3 && judgeLine(product).kind === "none"
  ) {
    return productSuccess(line, product, store, price);
  }
  for (const [notice, patterns] of [[false, SUCCESS], [true, ORDER_NOTICE]] as const) {
    for (const pattern of patterns) {
      const found = pattern.exec(lower);
      if (found) {
        // `rest` is cut from the original line, which has the same length unless case folding
        // changed it (rare letters such as U+0130): then nothing follows.
        const rest = lower.length === line.length ? line.slice(found.index + found[0].length) : "";
        return { kind: "success", notice, text: line, rest };
      }
    }
  }
  return WEAK.test(lower) ? { kind: "weak" } : { kind: "none" };
}

/** A post's or an embed's header: its verdict and what the header itself states. */
export interface Header {
  verdict: HeaderVerdict;
  /** Where the success words are: `title`, `author`, `description` or `content`. */
  where?: HeaderPlace;
  /** A product named in the header (`Success: <product>`). */
  product?: string;
  /** Its price, when the header's sentence states one (`... for $168.00`). */
  price?: string;
}

export type HeaderPlace = "title" | "author" | "description" | "content" | "footer";

/** Judges header lines in order: a non-checkout word anywhere wins, then success, then weak. */
export function judgeHeader(lines: readonly [HeaderPlace, string][]): Header {
  let success: Header | undefined;
  let weak = false;
  for (const [where, line] of lines) {
    const verdict = judgeLine(line);
    if (verdict.kind === "not_checkout") return { verdict };
    if (verdict.kind === "success" && !success) {
      const { product, price, ...rest } = verdict;
      success = {
        verdict: rest,
        where,
        ...(product ? { product } : {}),
        ...(price ? { price } : {}),
      };
    }
    if (verdict.kind === "weak") weak = true;
  }
  return success ?? { verdict: weak ? { kind: "weak" } : { kind: "none" } };
}

/** The header lines of an embed: title, author name, first line of the description. */
export function embedHeaderLines(embed: ChatEmbed): [HeaderPlace, string][] {
  const lines: [HeaderPlace, string][] = [];
  const title = cleanText(embed.title);
  if (title) lines.push(["title", title]);
  const author = cleanText(embed.author?.name);
  if (author) lines.push(["author", author]);
  const first = cleanLines(embed.description)[0];
  if (first) lines.push(["description", first]);
  return lines;
}

/**
 * The parts of an embed's footer (`Bot v2 • Checked out`), split at a bullet, bar or dash between
 * spaces: bots that split a checkout over embeds may say its outcome only there.
 */
export function footerHeaderLines(embed: ChatEmbed): [HeaderPlace, string][] {
  const parts = cleanText(embed.footer?.text).slice(0, 200).split(/\s+[•·|―—]\s+/, 5);
  return parts.map((p) => p.trim()).filter((p) => p !== "").map((p) => ["footer", p]);
}

/** The header line of the post's `content`: its first line. */
export function contentHeaderLines(content: string | undefined): [HeaderPlace, string][] {
  const first = cleanLines(content)[0];
  return first ? [["content", first]] : [];
}

const SEPARATED = /^\s*(?:[|•:@~]|[-–—]|on\b|at\b|from\b)\s*(.+?)[\s!.]*$/i;

/** The store a success header names after its phrase: `Successful Checkout | Target`, `... on Nike US`. */
export function storeInHeader(verdict: HeaderVerdict): string | undefined {
  if (verdict.kind !== "success") return undefined;
  const store = SEPARATED.exec(verdict.rest)?.[1]?.trim();
  return store && store.length <= 100 && judgeLine(store).kind === "none" ? store : undefined;
}

/**
 * An order number printed in a header: `New order #58213`, `Order #1187 placed`,
 * `Neue Bestellung #1042`, `Nouvelle commande n° 881`.
 */
const ORDER_IN_HEADER =
  /(?<!\p{L})(?:order|bestellung|commande|pedido|bestelling|ordine)\s*(?:#|no\.?|number|nr\.?|id|n[°º]\.?|nummer|numéro|número|numero)\s*:?\s*#?\s*([a-z0-9][a-z0-9-]{1,40})(?![\p{L}\p{N}])/iu;

/** `… — Order 912003318822`: an order number after a dash that closes a bot's sentence. */
const ORDER_AFTER_DASH =
  /\s[—–|-]\s*(?:order|bestellung|commande|pedido|bestelling|ordine)\s*(?:#|no\.?|number|nr\.?|id|n[°º]\.?)?\s*:?\s*#?\s*([a-z0-9][a-z0-9-]{2,40})(?![\p{L}\p{N}])/iu;

export function orderNumberInHeader(text: string): string | undefined {
  // After a dash only in a bot's report that opens with its verb (`Checked out … — Order 91…`);
  // a person's `I checked out … — order 99172` is chatter.
  const found = ORDER_IN_HEADER.exec(text)?.[1] ?? NAMED_SUBJECT_SENTENCE.exec(text)?.[4] ??
    (CHECKED_OUT_OBJECT.test(text) ? ORDER_AFTER_DASH.exec(text)?.[1] : undefined);
  return found && /\d/.test(found) ? found : undefined;
}
