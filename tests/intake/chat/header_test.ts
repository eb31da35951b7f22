import { deepStrictEqual as eq, equal } from "node:assert/strict";
import {
  headerSignals,
  judgeHeader,
  judgeLine,
  orderNumberInHeader,
  storeInHeader,
} from "../../../src/intake/chat/header.ts";

const verdict = (line: string) => judgeLine(line).kind;

Deno.test("success headers of the bots", () => {
  for (
    const line of [
      "Successful Checkout!",
      "Successfully checked out!",
      "Successful checkout (card)",
      "Venetia Successful Checkout!",
      "Kodai Success",
      "IF8892 Checkout Success|Splashforce",
      "Checkout Successful",
      "The bot checked out",
      "Order placed",
      "Order Confirmed — Nike",
      "New order #58213",
      "Order #1187 placed by Sam T.",
      "Purchase complete",
    ]
  ) equal(verdict(line), "success", line);
});

Deno.test("failure and non-checkout words win, matched as whole words", () => {
  const cases: [string, string][] = [
    ["Payment Declined", "decline"],
    ["Card Declined", "decline"],
    ["Checkout Failed | Best Buy US", "decline"],
    ["Payment failed! (card)", "decline"],
    ["Venetia Failed Checkout!", "decline"],
    ["Order Declined", "decline"],
    ["Successful checkout? No: out of stock", "out of stock"],
    ["Product Available", "monitor"],
    ["Restock — Footlocker US", "monitor"],
    ["New Product", "monitor"],
    ["Entered Raffle", "raffle"],
    ["Waiting in queue", "queue"],
    ["Task started", "task status"],
    ["Task checkout failed", "decline"],
    ["A task checked out but payment failed", "decline"],
    ["Tasks stopped: 3 checked out", "task status"],
    ["Captcha Required", "captcha"],
    ["Test Notification", "test"],
    ["Cybersole v5.5.0 is live", "announcement"],
    ["AYCD Toolbox 2.9.4 released", "announcement"],
  ];
  for (const [line, category] of cases) {
    const v = judgeLine(line);
    equal(v.kind, "not_checkout", line);
    equal(v.kind === "not_checkout" && v.category, category, line);
  }
  // A bot's one-line report with its name as the subject: product, store, price, order.
  const report = judgeLine(
    "Vex checked out Trail Cap (Olive) on Kestrel Goods for $32.00 — order KG-9917",
  );
  eq(report.kind === "success" && [report.product, report.rest, report.price], [
    "Trail Cap",
    " on Kestrel Goods",
    "$32.00",
  ]);
  equal(report.kind === "success" && orderNumberInHeader(report.text), "KG-9917");
  // A failure word still wins.
  equal(
    verdict("Vex checked out Trail Cap on Kestrel Goods — order KG-9917 declined"),
    "not_checkout",
  );
  // Without an order number, or with a pronoun as subject, it is a person's sentence.
  equal(judgeLine("Sam copped Trail Cap on Kestrel Goods — order soon").product, undefined);
  equal(judgeLine("I checked out Trail Cap on Kestrel Goods — order 99172").product, undefined);
  equal(orderNumberInHeader("I checked out Trail Cap on Kestrel Goods — order 99172"), undefined);
  // A task that is the subject of a checkout verb is the checkout itself.
  equal(verdict("One task checked out successfully"), "success");
  equal(verdict("Task #4 has successfully checked out"), "success");
  // Inside words they mean nothing: Ultraboost, Terror, Boost.
  equal(verdict("adidas Ultraboost 1.0"), "none");
  equal(verdict("Supreme Terror Squad Tee"), "none");
  equal(verdict("You cooked"), "none");
  equal(verdict("Bot Checkout"), "weak");
});

Deno.test("Success: <product> judges only the words before the colon", () => {
  const v = judgeLine("Success: Air Max 'Error' Sold Out Edition");
  equal(v.kind, "success");
  equal(v.product, "Air Max 'Error' Sold Out Edition");
});

Deno.test("a header is a checkout only when no line says otherwise", () => {
  const ok = judgeHeader([["author", "Wrath Success"], ["title", "Jordan 1"]]);
  equal(ok.verdict.kind, "success");
  equal(ok.where, "author");
  const no = judgeHeader([["author", "Wrath Success"], ["description", "Payment declined"]]);
  equal(no.verdict.kind, "not_checkout");
  equal(judgeHeader([]).verdict.kind, "none");
});

Deno.test("a store named after the success phrase; order numbers in notices", () => {
  equal(storeInHeader(judgeLine("Successful Checkout | Target")), "Target");
  equal(storeInHeader(judgeLine("Successful Checkout on Nike US")), "Nike US");
  equal(storeInHeader(judgeLine("Order Placed | Amazon")), "Amazon");
  equal(storeInHeader(judgeLine("Successful checkout (card)")), undefined);
  equal(storeInHeader(judgeLine("Kodai Success")), undefined);
  equal(storeInHeader(judgeLine("Order #1187 placed by Sam T.")), undefined);
  equal(storeInHeader(judgeLine("Payment Declined | Target")), undefined);
  equal(orderNumberInHeader("New order #58213"), "58213");
  equal(orderNumberInHeader("Order #1187 placed by Sam T."), "1187");
  equal(orderNumberInHeader("Order Confirmed — Nike"), undefined);
  equal(orderNumberInHeader("Order #ABCDEF"), undefined);
  equal(orderNumberInHeader("Neue Bestellung #1042"), "1042");
  equal(orderNumberInHeader("Nouvelle commande n° 881-B"), "881-B");
  equal(orderNumberInHeader("Bestellung erfolgreich"), undefined);
});

Deno.test("a few other languages, account generators, and status news", () => {
  for (const line of ["Checkout erfolgreich", "Commande réussie", "Pedido exitoso", "下单成功"]) {
    equal(verdict(line), "success", line);
  }
  for (const line of ["Zahlung abgelehnt", "Paiement refusé", "Pago rechazado", "支付失败"]) {
    equal(verdict(line), "not_checkout", line);
  }
  equal(verdict("Account Generated Successfully"), "not_checkout");
  equal(verdict("Accounts created"), "not_checkout");
  equal(headerSignals(["Order shipped — Nike"]).shipped, true);
  equal(headerSignals(["Your order was delivered"]).delivered, true);
  equal(JSON.stringify(headerSignals(["Successful Checkout", "Delivery: Standard"])), "{}");
});

Deno.test("success, decline and non-checkout headers in DE, FR, ES, NL, IT and JA", () => {
  const success = [
    "Bestellung aufgegeben",
    "Commande passée",
    "Compra realizada",
    "Bestelling geplaatst",
    "Gelukt!",
    "Acquisto completato",
    "Ordine effettuato",
    "チェックアウト成功",
    "購入完了",
    "Nouvelle commande #1042",
    "Betaling geslaagd",
    "ご注文が完了しました",
  ];
  for (const line of success) equal(verdict(line), "success", line);
  const refused: [string, string][] = [
    ["Checkout nicht erfolgreich", "decline"],
    ["Bestelling mislukt", "decline"],
    ["Acquisto non riuscito", "decline"],
    ["決済エラー", "decline"],
    ["Ausverkauft", "out of stock"],
    ["Rupture de stock", "out of stock"],
    ["在庫切れ", "out of stock"],
    ["In der Warteschlange", "queue"],
    ["Ajouté au panier", "task status"],
    ["Aggiunto al carrello", "task status"],
    ["Webhookテスト", "test"],
    ["Mensaje de prueba", "test"],
    ["Successful Login", "task status"],
    ["Wieder verfügbar", "monitor"],
    ["De nouveau en stock", "monitor"],
    ["再入荷", "monitor"],
    ["Fuera de stock", "out of stock"],
  ];
  for (const [line, category] of refused) {
    const v = judgeLine(line);
    equal(v.kind === "not_checkout" ? v.category : v.kind, category, line);
  }
  equal(headerSignals(["Bestellung versandt"]).shipped, true);
  equal(headerSignals(["Commande livrée"]).delivered, true);
  equal(headerSignals(["配達完了"]).delivered, true);
});

Deno.test("'Checked out <product> on <store>': the verb's object is the product", () => {
  const read = judgeLine("Successfully checked out Nike Dunk Low from Nike US!");
  equal(read.kind === "success" && read.product, "Nike Dunk Low");
  equal(storeInHeader(read), "Nike US");
  equal(judgeLine("Copped Jordan 4 'Bred' @ Foot Locker").product, "Jordan 4 'Bred'");
  for (
    const line of [
      "Checked out!",
      "Checked out (2/3)",
      "Checked out in 2.3s",
      "Checked Out | Target",
      "Checked out again",
      "Secured the bag",
    ]
  ) {
    equal(judgeLine(line).product, undefined, line);
  }
  // The passive: the product is the subject; a pronoun or the order itself names nothing.
  equal(
    judgeLine("Stüssy × Nike Windrunner Jacket has been successfully checked out.").product,
    "Stüssy × Nike Windrunner Jacket",
  );
  equal(judgeLine("Dunk Low was purchased from Nike US!").product, "Dunk Low");
  equal(judgeLine("Your order has been successfully checked out.").product, undefined);
  equal(judgeLine("It was purchased").product, undefined);
  // After `Successful Checkout` a word is the title's, not a product.
  equal(judgeLine("Successful Checkout Notification").product, undefined);
  equal(judgeLine("Purchased failed").kind, "not_checkout");
});

Deno.test("a bot's 'Checked out' sentence: store, count and order number after the product", () => {
  const line = "Checked out Trail Lantern on Kestrel Goods for $41.90 (Qty 2) — Order 77120455310";
  const v = judgeLine(line);
  equal(v.product, "Trail Lantern (Qty 2)");
  // A price said for two pieces may be their sum.
  equal(v.price, undefined);
  equal(storeInHeader(v), "Kestrel Goods");
  equal(orderNumberInHeader(line), "77120455310");
  const one = judgeLine(
    "Checked out Trail Lantern on Kestrel Goods for $20.95 — Order 77120455310",
  );
  equal(one.price, "$20.95");
  equal(storeInHeader(one), "Kestrel Goods");
});
