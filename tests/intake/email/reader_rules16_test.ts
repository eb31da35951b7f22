/**
 * General rules of the email reader learned from a sixteenth set: a number kept under a tracking
 * label whose shape names no carrier of ours takes the carrier the label itself names
 * (`DHL tracking number`, `UPS-Sendungsnummer`), else the one carrier of ours the mail's sentences
 * say the parcel goes with (`ist mit DHL Paket unterwegs`, `enviado con UPS`); never when the
 * mail names two, names a carrier we do not look up, or names it only for returns.
 */
import { equal } from "node:assert/strict";
import { textToBlocks } from "../../../src/intake/email/letter.ts";
import { findTracking } from "../../../src/intake/email/tracking.ts";

const carrier = (text: string) => findTracking(textToBlocks(text), "30418").carrier;

Deno.test("a tracking label naming a carrier of ours gives it to a number of no known shape", () => {
  equal(carrier("DHL tracking number: 004770188431"), "dhl");
  equal(carrier("UPS-Sendungsnummer: 004770188431"), "ups");
  equal(carrier("USPS Tracking Number: 004770188431"), "usps");
  // A bare label says nothing of the carrier.
  equal(carrier("Tracking number: 004770188431"), undefined);
});

Deno.test("the one carrier a sentence says the parcel goes with gives it to a labelled number", () => {
  equal(
    carrier("Ihre Bestellung 30418 ist mit DHL Paket unterwegs.\nSendungsnummer: 004770188326"),
    "dhl",
  );
  equal(carrier("Lo hemos enviado con UPS.\nNúmero de seguimiento: 004770188326"), "ups");
  equal(carrier("Votre colis est parti avec FedEx.\nNuméro de suivi : 004770188326"), "fedex");
});

Deno.test("two carriers, a carrier we do not look up, a returns line or no label: no carrier", () => {
  equal(carrier("Shipped with UPS or FedEx.\nTracking number: 004770188326"), undefined);
  equal(
    carrier("Shipped with DHL, handed over to Evri.\nTracking number: 004770188326"),
    undefined,
  );
  equal(carrier("Returns go back with UPS.\nTracking number: 004770188326"), undefined);
  // A number in a sentence without a tracking label is not vouched for by the sentence.
  equal(findTracking(textToBlocks("Shipped with DHL, parcel 004770188326.")).carrier, undefined);
});
