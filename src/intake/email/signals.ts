/**
 * What a mail says happened (research/intake.md §1.5), read only from its subject, its first
 * heading and its first sentence, never from body keywords (progress bars print every status):
 * precedence canceled > delivered > out for delivery > shipped > confirmed. And whether it is
 * a mail that is never an order (newsletter, password reset, code, welcome, abandoned cart,
 * review request, draw result, refund on its own...).
 */
import type { Block } from "./html.ts";
import { foldForMatch } from "../text.ts";

export type Phase = "canceled" | "delivered" | "out_for_delivery" | "shipped" | "confirmed";

/** Japanese status words, folded as `foldForMatch` folds them (NFKD splits voiced kana). */
const ja = (words: string) => words.normalize("NFKD");

const PHASES: [Phase, RegExp][] = [
  [
    "canceled",
    new RegExp(
      String
        .raw`\b(?:cancel+ed|cancel+ation|has been cancel+ed|storniert|stornierung|annulee?s?|annulation|cancelad[oa]s?|cancelacion|anulad[oa]|annullat[oa]|geannuleerd|annulering|anulowan[aeo]|anulowanie|annullerets?|kanceller(?:et|ad)|avbokad|makulerad|kansellert|peruttu)\b|` +
        ja("キャンセル|取り消し|取消"),
    ),
  ],
  [
    "delivered",
    new RegExp(
      String
        .raw`(?<!\b(?:will be|wird|wordt|sera|sara)\b[^.!?]{0,40})\b(?:delivered|has arrived|was delivered|have been delivered|zugestellt|geliefert|livree?s?|entregad[oa]s?|consegnat[oa]|bezorgd|afgeleverd|dostarczon[aeyo]|entregues?|leveret|udleveret|levert|levererad|levererats|afleveret|(?:paquete|pedido|compra|envio) (?:ya )?llego|entregamos|on toimitettu(?! kuljetukseen))\b|` +
        ja(
          "配達(?:が)?完了|お届け(?:が)?完了|配達しました(?!ら)|お届けしました(?!ら)|配達されました(?!ら)|お届けされました(?!ら)",
        ),
    ),
  ],
  [
    "out_for_delivery",
    new RegExp(
      String
        .raw`\b(?:out for delivery|in zustellung|wird heute zugestellt|kommt heute|en cours de livraison|en reparto|in consegna|wordt vandaag bezorgd|will be delivered today|sera livree? aujourd'hui|w doreczeniu|wydan[ao] do doreczenia|saiu para entrega|ude til levering|ute for levering)\b|` +
        ja("配達中|本日お届け"),
    ),
  ],
  [
    "shipped",
    new RegExp(
      String
        .raw`\b(?:shipped|has shipped|on (?:the|its|their) way|dispatched|in transit|fulfilled|handed (?:over )?to|versandt|versendet|verschickt|unterwegs|auf dem weg|versandbestatigung|lieferstatus.*versandt|expediee?s?|expedition|en route|enviad[oa]s?|(?:en|de) camino|envio confirmado|spedit[oa]|in viaggio|verzonden|onderweg|will (?:be delivered|arrive) tomorrow|sera livree? demain|(?:will be|wird|wordt|sera|sara) (?:morgen|tomorrow|demain|manana|domani)\b[^.!?]{0,30}?\b(?:delivered|geliefert|zugestellt|bezorgd|geleverd|livree?s?|entregad[oa]s?|consegnat[oa])|is now complete|shipping confirmation|shipment confirmation|confirmation d'expedition|confirmacion de envio|wys[lł]an[aeoy]|nadan[aeoy]|wys[lł]ali?smy|nadali?smy|w drodze` +
        // Portuguese, Danish, Norwegian, Swedish.
        String
          .raw`|despachad[oa]s?|(?:encomenda|pedido|compra|pacote|artigos?|produtos?)\b[^!?]{0,25}?\bexpedid[oa]s?|em transporte|en transito|(?:foi |objeto |pedido |encomenda )postad[oa]|(?:ar|har) (?:nu )?slutford|er (?:na |nå |nu )?(?:fullf(?:ø|o)rt|gennemf(?:ø|o)rt|fuldf(?:ø|o)rt)|se ha completado|ha sido completad[oa]|(?:foi|esta) concluid[oa]|a caminho|em transito|afsendt|(?:ordren?|pakken?|bestillingen?|forsendelsen?|varer(?:ne)?)\b[^!?]{0,25}?\b(?:er|blev|har blitt) (?:nu |na )?(?:blevet )?sendt|sendt med|(?:vi )?har (?:nu )?(?:sendt|afsendt|skickat) (?:din|ditt|dine|dina) (?:pakke|paket|ordre|order|bestilling|bestallning|varer|varor|forsendelse)|enviamos (?:o |a )?(?:seu|sua|tu|su) (?:pedido|encomenda|orden|compra|paquete|pacote)|er pa vej|pa vei|(?:order|ordern|paket|paketet|bestallning(?:en)?|varor(?:na)?|forsandelse(?:n)?)\b[^!?]{0,25}?\b(?:skickad|skickat|skickats|skickades)|pa vag|(?:tilau(?:s|ksesi|ksen)|paketti(?:si)?|lahetys|lahetyksesi)\b[^!?]{0,25}?\blahetetty|toimitettu kuljetukseen|on matkalla)\b|` +
        ja(
          "(?:お届け|配達)予定(?:日)?(?:の|を)お知らせ|(?:発送|出荷)(?:しました(?!ら)|済み|のお知らせ|完了|のご連絡|のご案内|いたしました(?!ら)|されました(?!ら))|配送中|お届け中|(?:発送|出荷)(?:お知らせ|ご案内|ご連絡)",
        ),
    ),
  ],
  // `ausgeliefert` is said of goods the shop sent out (a shop system's status `Komplett
  // ausgeliefert`) as well as of goods handed to the buyer: delivered only when nothing in the
  // scope says the order was shipped or is on its way.
  ["delivered", /(?<!\b(?:wird|werden)\b[^.!?]{0,40})\bausgeliefert\b/],
  [
    "confirmed",
    new RegExp(
      String
        .raw`\b(?:order (?:is )?confirmed|order #?[\w-]*\d[\w-]* (?:is |has been )?confirmed|order confirmation|confirmation de (?:(?:votre|ta) )?commande|bestellbestatigung|bestatigung (?:ihrer|deiner) bestellung|confirmacion de(?: tu| su)? pedido|conferma (?:dell'|del tuo |del suo )?ordine|bevestiging van (?:je|uw) bestelling|(?:order|bestel)bevestiging|thanks? (?:you )?for (?:your )?(?:order|purchase)|thank you for shopping|we(?:'ve| have) received your order|order (?:has been )?received|has been received|has been (?:successfully )?placed|(?:was|is) successfully placed|(?:was |has been )?placed successfully|order placed|we(?:'ve| have)? (?:got|received) your (?:order|purchase)|(?:your )?purchase (?:is |has been )?confirmed|thanks for shopping with us|bestellung (?:ist |wurde )?(?:bei uns )?(?:erfolgreich )?(?:eingegangen|aufgegeben|angenommen)|(?:wir )?haben (?:ihre|deine) bestellung (?:erhalten|bekommen)|commande\b[^.!?]{0,60}?\b(?:a (?:bien )?ete|est bien) (?:recue|enregistree|validee|prise en compte)|(?:nous )?avons bien recu (?:votre|ta) commande|commande recue|pedido (?:se ha|ha sido|fue) (?:realizado|registrado|recibido|confirmado)|hemos recibido (?:tu|su) pedido|pedido recibido|ordine (?:e stato|e stata) (?:ricevut[oa]|effettuat[oa]|registrat[oa])|abbiamo ricevuto (?:il )?(?:tuo |suo )?ordine|ordine ricevuto|bestelling is (?:succesvol )?(?:geplaatst|ontvangen)|(?:we )?hebben (?:je|uw) bestelling (?:goed )?ontvangen|bestelling ontvangen|you purchased|you(?:'ve| have)? bought|purchase (?:complete|successful)|we(?:'re| are) processing your order|(?:is|are) being (?:prepared|processed|packed|roasted)|getting (?:your )?(?:order|items?|it|them)(?: ready)?|got 'em|you got 'em|(?:vielen )?dank(?:e)? fur (?:deine|ihre|deinen|ihren) (?:bestellung|einkauf|auftrag)|auftragsbestatigung|bestellung (?:ist )?eingegangen|wird (?:gerade |jetzt )?(?:bearbeitet|vorbereitet)|in bearbeitung|merci pour (?:votre|ta|ton) (?:commande|achat)|en cours de preparation|en preparation|gracias por (?:tu|su) (?:compra|pedido)|se esta preparando|en preparacion|bedankt voor (?:je|uw) (?:bestelling|aankoop)|wordt (?:verwerkt|voorbereid)|grazie per (?:il tuo|il suo|l'|aver) ?(?:ordine|acquisto)|in (?:lavorazione|preparazione)|purchase confirmed|receipt|(?:commande|bestellung|pedido|ordine|bestelling|zamowienie)(?: (?:n[°o.]\s?|nr\.?\s?|#)?[\w-]*\d[\w-]*)? (?:est |ist |wurde |ha sido |esta |e stat[oa] |is |werd |zosta[lł]o )?(?:confirmee|bestatigt|confirmad[oa]|confermat[oa]|bevestigd|potwierdzone)|dziekujemy za (?:z[lł]ozenie )?(?:zamowieni[ae]|zakupy?)|potwierdzenie zamowienia|zamowienie (?:zosta[lł]o )?przyjete|przyj[eę]li?smy (?:twoje |pana |pani )?zamowienie|w realizacji` +
        // Spanish marketplaces, Portuguese, Danish, Norwegian, Swedish.
        String
          .raw`|compraste|ready for (?:pick ?up|collection)|bereit zur abholung|pret(?:e)? pour le retrait|list[oa] para (?:recoger|retirar|retirada)|klaar om af te halen|pront[oa] (?:per il ritiro|para retirada)|klar til (?:afhentning|henting)|redo att hamtas|gracias por comprar|obrigad[oa] por comprar|(?:order|ordre|bestellung|commande|bestelling|ordine|pedido|orden|encomenda|tilaus) #?\s?[\w-]*\d[\w-]* (?:(?:is|er|ist|est|wurde|ha sido|fue|foi|e stato|werd|on) )?(?:confirmed|bekr(?:æ|ae)ftet|bekraftad|bekreftet|bestatigt|confirmee?|bevestigd|confermat[oa]|confirmad[oa]|vahvistettu)|(?:tu|su|seu|sua) (?:pedido|orden|compra|encomenda) (?:ha sido |fue |foi |esta |esta sendo )?confirmad[oa]|(?:hemos )?recibi(?:do|mos) (?:tu|su) (?:pedido|orden|compra)|tak for dit k(?:ø|o)b|tack for ditt kop|takk for kj(?:ø|o)pet|takk for (?:bestillingen|ordren|handelen)|tak for (?:ordren|bestillingen|handlen)|(?:er|har blitt) mottatt|har tagits emot|har mottagits|on vastaanotettu|din ordre klar til afsendelse|(?:ya )?esta(?:mos)? preparando|recebemos (?:o )?(?:seu|teu) pedido|pedido (?:#?\s?[\w-]*\d[\w-]* )?(?:foi )?(?:recebido|confirmado|realizado)|obrigad[oa] pela (?:sua )?compra|confirmacao (?:do |de )?pedido|(?:estamos|esta sendo) (?:preparando|separando)|em (?:preparacao|separacao)|aguardando (?:a )?aprovacao` +
        String
          .raw`|ordrebekr(?:æ|ae)ftelse|ordrebekreftelse|orderbekraftelse|tak for din (?:ordre|bestilling|handel)|takk for (?:din )?(?:ordre|bestilling)|tack for din (?:order|bestallning)|vi har (?:tagit emot|mottatt) din (?:order|ordre|bestallning|bestilling)|tilausvahvistus|kiitos tilauksestasi|(?:tu|su) orden (?:ha sido |fue )?(?:confirmada|recibida)|gracias por (?:tu|su) orden|confirmacion de (?:tu |su )?orden|obrigad[oa] pela (?:sua )?encomenda|recebemos a sua encomenda|confirmacao da encomenda|encomenda (?:confirmada|recebida)|vi har modtaget din (?:ordre|bestilling)|(?:ordre|bestilling)(?:n)? er (?:modtaget|bekr(?:æ|ae)ftet)|(?:achat|acquisto|kauf|aankoop)(?: #?[\w-]*\d[\w-]*)? (?:a ete |est |e stato |ist |wurde |is |werd )?(?:bien )?(?:confirme|valide|enregistre|confermato|registrato|bestatigt|bevestigd))\b|` +
        ja(
          "ご注文ありがとうございます|ご?注文(?:が|を)?確定|(?:ご)?注文(?:が|を)?完了(?:しました|いたしました)|お買い(?:上げ|物)いただき(?:、)?(?:誠に)?ありがとうございます|(?:ご)?注文を承りました|ご(?:予約|購入)(?:いただき)?(?:、)?(?:誠に)?ありがとうございます|注文確定|(?:ご)?注文(?:の)?確認|注文を受け付け|注文受付(?:のお知らせ|完了|しました|いたしました)|注文内容(?:の)?(?:ご)?確認|注文内容をお知らせ|確定(?:しました|されました|いたしました)|(?:発送|出荷)準備|ご購入いただきありがとう",
        ),
    ),
  ],
];

/** Never an order, whatever else the mail holds (checked on subject, heading and first sentence). */
const NON_ORDER = new RegExp(
  String
    .raw`\b(?:password|passwort|mot de passe|contrasena|verification code|security code|sign[- ]in code|one[- ]time (?:code|password|passcode)|login code|your code|otp|bestatigungscode|code de verification|codigo de verificacion|welcome to|willkommen|bienvenue|bienvenid[oa]|account (?:is ready|created)|newsletter|left something|in your (?:cart|bag)|still in your|complete your (?:purchase|order|checkout)|forgot something|rate (?:your|this)|how would you rate|your opinion|write a review|leave a review|review your|bewerten|not selected|weren't selected|were not selected|didn't get 'em|did not win|better luck|entry (?:received|confirmed)|you(?:'re| are) entered|draw entry|raffle|your bid|bid is expiring|bid expir|price drop|back in stock|restock|new arrivals|sale ends|% off|policy update|update to our|privacy policy|terms of service|refund notification|refund (?:has been )?(?:processed|issued)|your refund|erstattung|remboursement|reembolso|gift card balance|subscribe|unsubscribe from|has[lł]o|kod weryfikacyjny|witamy w|w (?:twoim )?koszyku|wystaw opini[eę]|ocen (?:produkt|zakup))\b` +
    // Portuguese, Danish, Norwegian, Swedish, Finnish.
    String
      .raw`|\b(?:senha|adgangskode|passord|losenord|salasana|codigo de verificacao|bekraftelsekod|verifikationskode|bem-vind[oa] (?:a|ao)|velkommen til|valkommen till|tervetuloa|(?:no|seu) carrinho|en tu carrito|(?:completa|finaliza|termina) tu compra|finalize (?:a |sua )?compra|olvidaste algo|esqueceu (?:algo|alguma coisa)|glemt noget|glomt nagot|glemt noe|gennemfor dit kob|slutfor ditt kop|fullfor kjopet|i din kurv|i (?:din )?varukorg|handlekurv|ostoskori|avalie|anmeld|bedom|arvostele|califica(?:r)?|valora tu compra|opina (?:sobre )?tu compra|deja tu (?:opinion|resena)|de volta ao estoque|tilbage pa lager|tillbaka i lager|tilbake pa lager|nyhedsbrev|nyhetsbrev|uutiskirje)\b` +
    "|" +
    ja(
      "パスワード|認証コード|確認コード|ワンタイム|ようこそ|会員登録完了|カートに商品|レビューのお願い|レビューを書|再入荷のお知らせ|メールマガジン|メルマガ",
    ),
);

export interface StatusReading {
  phase?: Phase;
  /** The subject, heading or first sentence names a mail that is never an order. */
  nonOrder?: string;
}

const MAX_SCOPE = 600;
/** A sentence of a language written without spaces: kana or kanji closed by a full stop. */
const CJK_SENTENCE = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]{4}[^。]*[。！!]/u;
/** `The status of order #1882 is now Shipped`, `hat jetzt den Lieferstatus: Versandt`. */
const STATUS_NAMED =
  /\b(?:status|lieferstatus|bestellstatus|statut|estado)\b[^.]{0,40}?(?:\bis now\b|\bchanged to\b|\bupdated to\b|:)\s*([a-z][a-z ]{2,30})/;

/**
 * The end of a sentence: `.`, `!` or `?` and a space, but not after an abbreviation
 * (`ordre nr. 10392`, `n.º 45`, `No. 7`); `。` or `！` with no space after it.
 */
const SENTENCE_END =
  /(?<=(?<![\s(](?:[Nn][Rr]|[Nn][Oo]|[Nn]\.º|[Nn]º|[Ss]t|[Cc]a|[Ii]nkl|[Ii]ncl|[Rr]ef|[Aa]rt))[.!?])\s|(?<=[。！])/u;

/** `いつも…ありがとうございます。`, `この度は…`: a pleasantry before what happened. */
const CJK_PLEASANTRY = /^(?:いつも|この度|このたび|平素|毎度|[^。]{0,30}様[、。]?$)/;
const cjkSentence = (text: string) => CJK_SENTENCE.test(text) && !CJK_PLEASANTRY.test(text);

/** The text status words are read from: subject, first heading, first sentence of the body. */
export function statusScope(subject: string, blocks: Block[]): string[] {
  const scope = [subject];
  const heading = blocks.slice(0, 60).find((b) => b.heading && b.text.length > 3);
  if (heading) scope.push(heading.text);
  const sentence = blocks.slice(0, 60).find((b) =>
    !b.heading &&
    (b.text.split(" ").length >= 5 && /[a-z]/.test(b.text) || cjkSentence(b.text))
  );
  if (sentence) scope.push(sentence.text.split(SENTENCE_END)[0]);
  // Platforms that send one "status changed" mail for every status name the new one.
  for (const b of blocks.slice(0, 30)) {
    const named = STATUS_NAMED.exec(foldForMatch(b.text));
    if (named) {
      scope.push(named[1]);
      break;
    }
  }
  return scope.map((s) => withoutFuture(handedOver(foldForMatch(s).slice(0, MAX_SCOPE))));
}

/**
 * A clause about what will happen ("We'll let you know when your items are on their way",
 * "once it ships") says nothing about now: it is cut from the scope.
 */
const FUTURE_CLAUSE =
  /\b(?:when|once|as soon as|after|before|until|if|gdy|kiedy|jak tylko|zostanie|bedzie|sobald|wenn|bevor|des que|lorsque|quand|avant|cuando|en cuanto|antes de|zodra|wanneer|quando|appena|non appena|we(?:'ll| will) (?:let you know|notify|email|send)|you(?:'ll| will) (?:receive|get)|(?:ready|prepared|preparing) (?:to|for)(?! (?:pick ?up|collection))|(?:will|to) (?:be )?(?:ship|dispatch|sen[dt])|will (?:soon )?(?:ship|be on (?:its|their) way)|bereit (?:zum|fur den) versand|pret(?:e|es|s)? (?:a|pour) (?:etre )?expediee?s?|listo para (?:el )?envio|klaar voor verzending|pronto per (?:la )?spedizione|sera (?:enviad[oa]s?|expediee?s?)|wird (?:bald |in kurze |demnachst )?(?:versendet|verschickt|versandt)|wordt (?:binnenkort )?verzonden|sara spedit[oa]|assim que|depois que|sa snart|nar|(?:will be|wird|wordt|sera|sara)\b(?![^.!?]*\b(?:heute|today|vandaag|aujourd'hui|hoy|oggi|morgen|tomorrow|demain|manana|domani)\b)(?=[^.!?]*\b(?:delivered|geliefert|zugestellt|bezorgd|geleverd|livree?s?|entregad[oa]s?|consegnat[oa])\b))\b[^.!?]*/g;

/**
 * A seller who has delivered the parcel to the carrier or a drop-off point (`El vendedor ya ha
 * entregado el paquete en Correos`, `the seller has dropped off your item`) has shipped it; the
 * buyer has received nothing yet.
 */
const HANDOVER =
  /\b(?:seller|vendedor|vendeur|verkaufer|venditore|verkoper)\b(?: [a-z]+){0,2}? (?:ya |already |deja |bereits )?(?:has|ha|a|hat|heeft)(?: already| ya| deja| bereits)? (?:delivered|dropped off|handed (?:over|in)|entregado|depose|remis|abgegeben|consegnato|afgegeven|ingeleverd)\b/g;

function handedOver(text: string): string {
  return text.replace(HANDOVER, " handed to ");
}

function withoutFuture(text: string): string {
  return text.replace(FUTURE_CLAUSE, " ");
}

/** The phase a scope names, by precedence; each scope part checked in order (subject first). */
export function readPhase(scope: string[]): Phase | undefined {
  for (const [phase, re] of PHASES) {
    if (scope.some((s) => re.test(s))) return phase;
  }
  return undefined;
}

/** The non-order wording found in the scope, if any. */
export function nonOrderWording(scope: string[]): string | undefined {
  for (const s of scope) {
    const m = NON_ORDER.exec(s);
    if (m) return m[0];
  }
  return undefined;
}
