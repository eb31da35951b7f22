import { deepEqual } from "node:assert/strict";
import { MAX_SCAN_RESULTS, scanTrackingNumbers } from "../../src/domain/tracking/scan.ts";

/** Only the numbers, in the order found. */
const numbers = (text: string, maxResults?: number) =>
  scanTrackingNumbers(text, maxResults).map((found) => found.trackingNumber);

Deno.test("finds the numbers of a message in order, once each, with their carriers", () => {
  const text = "Hi! Your UPS parcel 1Z5R89390357567127 is on its way.\n" +
    "The FedEx part: 0414 4176 0228 964; USPS: 9400-1112-0108-0805-4830-16.\n" +
    "Again: 1z5r89390357567127. Registered letter RB 123 456 785 US, " +
    "DHL Express waybill 3318810025 and eCommerce GM2951173225174494 DHL.";
  deepEqual(scanTrackingNumbers(text), [
    { carrier: "ups", trackingNumber: "1Z5R89390357567127", form: "ups-1z" },
    { carrier: "fedex", trackingNumber: "041441760228964", form: "fedex-ground-15" },
    { carrier: "usps", trackingNumber: "9400111201080805483016", form: "usps-impb" },
    { carrier: "usps", trackingNumber: "RB123456785US", form: "usps-s10" },
    { carrier: "dhl-express", trackingNumber: "3318810025", form: "dhl-express-waybill" },
    { carrier: "dhl", trackingNumber: "GM2951173225174494", form: "dhl-ecommerce" },
  ]);
});

Deno.test("the longest number from a position wins over a shorter one inside it", () => {
  // The first 12 digits of this USPS number pass the FedEx Express check on their own.
  deepEqual(scanTrackingNumbers("9400 1100 0006"), [
    { carrier: "fedex", trackingNumber: "940011000006", form: "fedex-express-12" },
  ]);
  deepEqual(scanTrackingNumbers("tracking: 9400 1100 0006 0009 9999 91 thanks"), [
    { carrier: "usps", trackingNumber: "9400110000060009999991", form: "usps-impb" },
  ]);
});

Deno.test("words do not become part of a number", () => {
  // `in` + ten digits would read as a DHL eCommerce IN... number.
  deepEqual(numbers("shipped in 3318810025 boxes"), ["3318810025"]);
  deepEqual(numbers("SHIPPED IN 3318810025"), ["3318810025"]);
  // A form without a check digit does not take a word after it, nor one before it.
  deepEqual(numbers("GM2951173225174494 DHL"), ["GM2951173225174494"]);
  deepEqual(numbers("GM 2951173225174494"), []);
  // Inside a longer run of letters and digits there is no number.
  deepEqual(numbers("X1Z5R89390357567127 1Z5R89390357567127X"), []);
});

Deno.test("groups join by up to three spaces or dashes on one line, nothing else", () => {
  deepEqual(numbers("0414   4176 - 0228 964"), ["041441760228964"]);
  deepEqual(numbers("0414    4176 0228 964"), []);
  deepEqual(numbers("0414 4176\n0228 964"), []);
  deepEqual(numbers("0414.4176.0228.964"), []);
  deepEqual(numbers("0414\u00a04176\u20130228\u2014964"), ["041441760228964"]);
});

Deno.test("text without tracking numbers gives none", () => {
  deepEqual(numbers(""), []);
  deepEqual(numbers("Order #12345 of 2024-05-01, total $19.99. Call 555 0199."), []);
  deepEqual(numbers("1Z5R89390357567128 is a typo"), []);
});

Deno.test("results and work are bounded", () => {
  // 25 distinct valid FedEx Express numbers: serial, then the 3-1-7 check of the corpus.
  const many: string[] = [];
  for (let serial = 10_000_000_000; many.length < 25; serial++) {
    const digits = String(serial);
    const weights = [3, 1, 7, 3, 1, 7, 3, 1, 7, 3, 1];
    const sum = [...digits].reduce((total, digit, i) => total + Number(digit) * weights[i], 0);
    many.push(digits + (sum % 11 % 10));
  }
  const text = many.join(", ");
  deepEqual(numbers(text), many.slice(0, MAX_SCAN_RESULTS));
  deepEqual(numbers(text, 3), many.slice(0, 3));
  // 2 MiB of prose costs no classification: a number at its end is still found.
  const prose = "Lorem ipsum dolor sit amet, consectetur. ".repeat(52_000);
  deepEqual(numbers(prose + " 1Z5R89390357567127"), ["1Z5R89390357567127"]);
  // 2 MiB of digit groups ends when the attempt budget is spent, before a number at its end.
  const digits = "1234 5678 ".repeat(210_000);
  deepEqual(numbers(digits + "\n1Z5R89390357567127"), []);
});
