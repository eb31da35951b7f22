import { deepStrictEqual as eq, equal } from "node:assert/strict";
import { labelMeaning } from "../../../src/intake/chat/vocabulary.ts";

const kind = (label: string) => labelMeaning(label)?.kind ?? null;

Deno.test("synonyms of each order field", () => {
  const cases: Record<string, string[]> = {
    item: ["Product", "Item", "Item Name", "Product Name", "Products", "Product - Name"],
    store: ["Store", "Site", "Website", "Retailer", "Shop", "Srore"],
    orderNumber: [
      "Order",
      "Order #",
      "Order Number",
      "Order ID",
      "Order Num",
      "Order No.",
      "Confirmation #",
      "订单号(order#)",
      "Order Numver",
    ],
    price: ["Price", "Amount", "Cost", "Unit Price"],
    total: ["Total", "Order Total", "Grand Total"],
    quantity: ["Qty", "Quantity", "Quantity (1)"],
    size: ["Size", "size", "Size(s)", "Sz"],
    trackingNumber: ["Tracking", "Tracking Number", "Tracking #"],
  };
  for (const [want, labels] of Object.entries(cases)) {
    for (const label of labels) equal(kind(label), want, label);
  }
});

Deno.test("decorated and numbered labels match like plain ones", () => {
  equal(kind("🛒 Product"), "item");
  equal(kind("**Product**"), "item");
  equal(kind("Pro\u200bduct"), "item");
  equal(kind("Product (2)"), "item");
  equal(kind("Product #2"), "item");
  equal(kind("Product 1 Name"), "item");
  equal(kind("Price (1)"), "price");
  equal(kind("📦 Order #"), "orderNumber");
  equal(kind("Store:"), "store");
});

Deno.test("private labels are recognised first, whatever else they contain", () => {
  for (
    const label of [
      "Email",
      "Order Email",
      "Account",
      "Profile",
      "Billing Profile",
      "ProfileName",
      "Profile Name",
      "Proxy List",
      "Proxy Details",
      "Checkout Proxy",
      "Payment Method",
      "Mode",
      "模式(mode)",
      "Task",
      "Task Group",
      "Delay",
      "Webhook Name",
      "Checkout IP",
      "Customer",
      "Share Link",
      "Captcha Bypass",
    ]
  ) equal(kind(label), "private", label);
});

Deno.test("known labels that give nothing, unknown labels, and split labels", () => {
  for (
    const label of ["SKU", "Pid", "Link", "Order Link", "Order Track URL", "Fraud Status", "Sizes"]
  ) {
    equal(kind(label), "other", label);
  }
  equal(labelMeaning("Nike Dunk Low"), null);
  equal(labelMeaning("\u200b"), null);
  eq(labelMeaning("Size/Color"), { kind: "size", part: { index: 0, count: 2 } });
  eq(labelMeaning("Color / Size"), { kind: "size", part: { index: 1, count: 2 } });
  eq(labelMeaning("Size / Price"), {
    kind: "size",
    part: { index: 0, count: 2 },
    more: [{ kind: "price", part: { index: 1, count: 2 } }],
  });
});

Deno.test("the order fields' labels in German, French, Spanish, Dutch, Italian and Japanese", () => {
  const cases: Record<string, string[]> = {
    item: ["Artikel", "Produkt", "Produit", "Producto", "Artículo", "Prodotto", "商品名"],
    store: ["Händler", "Boutique", "Tienda", "Winkel", "Negozio", "ストア", "ショップ"],
    orderNumber: [
      "Bestellnummer",
      "N° de commande",
      "Numéro de commande",
      "Número de pedido",
      "N.º de pedido",
      "Bestelnummer",
      "Numero d'ordine",
      "注文番号",
    ],
    price: ["Preis", "Prix", "Precio", "Prijs", "Prezzo", "価格"],
    total: ["Gesamtsumme", "Montant total", "Importe total", "Totaal", "Totale", "合計"],
    quantity: ["Menge", "Anzahl", "Quantité", "Qté", "Cantidad", "Aantal", "Quantità", "数量"],
    size: ["Größe", "Taille", "Pointure", "Talla", "Maat", "Taglia", "サイズ"],
    trackingNumber: ["Sendungsnummer", "Numéro de suivi", "Número de seguimiento", "追跡番号"],
    carrier: ["Versanddienstleister", "Transporteur", "Transportista", "Vervoerder", "Corriere"],
  };
  for (const [want, labels] of Object.entries(cases)) {
    for (const label of labels) equal(kind(label), want, label);
  }
  for (const label of ["Profil", "Perfil", "Zahlungsart", "Adresse", "Kunde", "メールアドレス"]) {
    equal(kind(label), "private", label);
  }
  // Product codes and regions are known but give nothing: a SKU is not an item, a region no store.
  for (const label of ["Region", "Artikelnummer", "Référence", "品番", "Farbe", "Zwischensumme"]) {
    equal(kind(label), "other", label);
  }
  for (const label of ["Status", "Result", "Résultat", "Ergebnis", "ステータス"]) {
    equal(kind(label), "status", label);
  }
  equal(kind("Fraud Status"), "other");
});

Deno.test("more English spellings bots use for price, total, quantity, size and store", () => {
  const cases: Record<string, string[]> = {
    price: ["Retail Price", "Unit Cost", "Each"],
    total: ["Amount Paid", "Total Charged", "Paid"],
    quantity: ["Count", "Pcs"],
    size: ["US Size", "Size US"],
    store: ["Marketplace", "Vendor"],
  };
  for (const [want, labels] of Object.entries(cases)) {
    for (const label of labels) equal(kind(label), want, label);
  }
});
