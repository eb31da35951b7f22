/**
 * General rules of the email reader learned from a fifteenth set: in a sentence, a tracking label,
 * a carrier's name and the number with nothing between (`le numéro de suivi Chronopost 8R4…`)
 * give the tracking number, with no carrier (the name may be of a carrier we do not look up); under
 * a tracking label, a carrier's name before the number and words after it are not part of it.
 */
import { equal } from "node:assert/strict";
import { htmlToBlocks } from "../../../src/intake/email/html.ts";
import { textToBlocks } from "../../../src/intake/email/letter.ts";
import { findTracking } from "../../../src/intake/email/tracking.ts";

Deno.test("a tracking label, a carrier's name, then the number in a sentence: the number, no carrier", () => {
  const text = textToBlocks(
    "Bonjour,\n\nVotre commande WQPRTZ est expédiée.\n\n" +
      "Suivez-la avec le numéro de suivi Chronopost 8R40129938117 : https://example.org/suivi\n",
  );
  const read = findTracking(text, "WQPRTZ");
  equal(read.trackingNumber, "8R40129938117");
  equal(read.carrier, undefined);
  equal(read.trackingEvidence?.kind, "generic");
  const html = htmlToBlocks(
    "<p>Your parcel is on its way. Follow it with the tracking number Evri " +
      "<b>H01ZKA0071293845</b>: <a href='https://example.org/t'>track</a>.</p>",
  ).blocks;
  equal(findTracking(html).trackingNumber, "H01ZKA0071293845");
});

Deno.test("no tracking label before the carrier, no number after it, or the order's number: nothing", () => {
  const read = (line: string, order?: string) =>
    findTracking(textToBlocks(line), order).trackingNumber;
  equal(read("We ship with Chronopost 8R40129938117 and others."), undefined);
  equal(read("Votre numéro de suivi Colissimo vous sera envoyé demain."), undefined);
  equal(read("Le numéro de suivi Colissimo 88120045 suivra.", "88120045"), undefined);
});

Deno.test("under a tracking label, the carrier's name before the number and words after it are not part of it", () => {
  const read = (line: string) => findTracking(textToBlocks(line)).trackingNumber;
  equal(read("Tracking number: Chronopost 8R40129938117"), "8R40129938117");
  equal(read("Numéro de suivi : Mondial Relay 44120938"), "44120938");
  equal(read("Your tracking number Evri H01ZKA0071293845 is ready."), "H01ZKA0071293845");
  // A number printed in groups keeps them all (`3S DSPK 0044 17283`).
  equal(read("Track & Trace: 3S DSPK 0044 17283"), "3SDSPK004417283");
});
