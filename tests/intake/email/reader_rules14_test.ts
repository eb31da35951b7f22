/**
 * General rule of the email reader learned from a fourteenth set: a linking verb (`is`, `ist`,
 * `est`, `es`) between a spaced label and its value is no part of the value (`The tracking number
 * for your parcel is QX7730 4418 2290.`), except for a size, whose value may open with a region.
 */
import { equal } from "node:assert/strict";
import { htmlToBlocks } from "../../../src/intake/email/html.ts";
import { labelledValues } from "../../../src/intake/email/labels.ts";
import { findTracking } from "../../../src/intake/email/tracking.ts";

const blocksOf = (html: string) => htmlToBlocks(html).blocks;
const raw = (field: Parameters<typeof labelledValues>[1], html: string) =>
  labelledValues(blocksOf(html), field, (r) => r.trim() || null, { max: 1 })[0]?.value;

Deno.test("a linking verb after a spaced label is no part of the value", () => {
  equal(
    findTracking(
      blocksOf(
        "<p>Your parcel left us today. The tracking number for your parcel is <b>QX7730 4418 2290</b>.</p>",
      ),
      "58214",
    ).trackingNumber,
    "QX773044182290",
  );
  equal(raw("orderNumber", "<p>Order number is: 55102</p>"), "55102");
  equal(
    raw("trackingNumber", "<p>Tracking number ist 00340434161094027318</p>"),
    "00340434161094027318",
  );
});

Deno.test("without a linking verb the value is the whole rest; a size keeps a region that reads like one", () => {
  equal(raw("orderNumber", "<p>Order number 55102</p>"), "55102");
  equal(raw("trackingNumber", "<p>Tracking number ISL-0042-7781</p>"), "ISL-0042-7781");
  equal(raw("size", "<p>Size ES 38</p>"), "ES 38");
});
