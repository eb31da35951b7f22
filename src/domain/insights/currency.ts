/**
 * The workspace currency (docs/insights.md, "Workspace currency"): the currency `costCents` and the other cents fields
 * count in. Imported orders whose total is printed in it get that total as their cost.
 */

/** The currencies intake recognises in printed totals (src/intake/money.ts). */
export const CURRENCIES = [
  "USD",
  "EUR",
  "GBP",
  "CHF",
  "CAD",
  "AUD",
  "NZD",
  "JPY",
  "SEK",
  "NOK",
  "DKK",
  "PLN",
  "CZK",
  "HUF",
  "MXN",
  "BRL",
  "HKD",
  "SGD",
  "CNY",
  "INR",
  "ZAR",
] as const;
export type Currency = typeof CURRENCIES[number];

/** Time zones (or their area prefix) whose country's currency is not the default. */
const BY_ZONE: [RegExp, Currency][] = [
  [/^Europe\/(London|Belfast|Guernsey|Isle_of_Man|Jersey)$/, "GBP"],
  [/^Europe\/(Zurich|Busingen)$/, "CHF"],
  [/^Europe\/Stockholm$/, "SEK"],
  [/^(Europe\/Oslo|Arctic\/Longyearbyen)$/, "NOK"],
  [/^(Europe\/Copenhagen|Atlantic\/Faroe|America\/(Nuuk|Godthab))$/, "DKK"],
  [/^Europe\/Warsaw$/, "PLN"],
  [/^Europe\/Prague$/, "CZK"],
  [/^Europe\/Budapest$/, "HUF"],
  [/^Europe\//, "EUR"],
  [/^America\/(Toronto|Vancouver|Edmonton|Winnipeg|Halifax|St_Johns|Regina|Montreal)$/, "CAD"],
  [/^America\/(Mexico_City|Monterrey|Tijuana|Cancun|Merida|Chihuahua)$/, "MXN"],
  [/^America\/(Sao_Paulo|Fortaleza|Recife|Bahia|Manaus|Belem)$/, "BRL"],
  [/^Australia\//, "AUD"],
  [/^Pacific\/Auckland$/, "NZD"],
  [/^Asia\/Tokyo$/, "JPY"],
  [/^Asia\/Hong_Kong$/, "HKD"],
  [/^Asia\/Singapore$/, "SGD"],
  [/^Asia\/(Shanghai|Chongqing|Harbin|Urumqi)$/, "CNY"],
  [/^Asia\/(Kolkata|Calcutta)$/, "INR"],
  [/^Africa\/Johannesburg$/, "ZAR"],
];

/**
 * The default workspace currency, from the account's time zone (the locale the account
 * records): USD unless the zone names a country with another currency of the list.
 */
export function currencyForTimezone(timezone: string | undefined): Currency {
  for (const [zone, currency] of BY_ZONE) if (timezone && zone.test(timezone)) return currency;
  return "USD";
}
