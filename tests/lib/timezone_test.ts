import { equal } from "node:assert/strict";
import {
  addDays,
  dayRange,
  localDate,
  localMonth,
  offsetAt,
  safeTimeZone,
  startOfDay,
  startOfNextMonth,
} from "../../src/lib/timezone.ts";

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

Deno.test("local midnight in whole, half and three-quarter hour zones", () => {
  equal(iso(startOfDay("2025-03-01", "UTC")), "2025-03-01T00:00:00.000Z");
  equal(iso(startOfDay("2025-03-01", "America/New_York")), "2025-03-01T05:00:00.000Z");
  equal(iso(startOfDay("2025-07-01", "America/New_York")), "2025-07-01T04:00:00.000Z");
  equal(iso(startOfDay("2025-03-01", "Asia/Kolkata")), "2025-02-28T18:30:00.000Z");
  equal(iso(startOfDay("2025-03-01", "Asia/Kathmandu")), "2025-02-28T18:15:00.000Z");
  equal(iso(startOfDay("2025-03-01", "Pacific/Chatham")), "2025-02-28T10:15:00.000Z");
});

Deno.test("DST changes: the day starts at its first existing local time", () => {
  // New York springs forward at 02:00, so midnight exists; the day is 23 hours long.
  const day = startOfDay("2025-03-09", "America/New_York");
  equal(startOfDay("2025-03-10", "America/New_York") - day, 23 * 3600_000);
  // Santiago skips 00:00 -> 01:00 on 2024-09-08: the day starts at 01:00 local (04:00 UTC).
  equal(iso(startOfDay("2024-09-08", "America/Santiago")), "2024-09-08T04:00:00.000Z");
  equal(localDate(startOfDay("2024-09-08", "America/Santiago"), "America/Santiago"), "2024-09-08");
  // Santiago falls back at 00:00 -> 23:00 on 2025-04-06: the day starts at the second 00:00.
  equal(iso(startOfDay("2025-04-06", "America/Santiago")), "2025-04-06T04:00:00.000Z");
});

Deno.test("local dates, months and offsets", () => {
  equal(localDate(at("2025-03-01T02:00:00Z"), "America/New_York"), "2025-02-28");
  equal(localMonth(at("2025-03-01T02:00:00Z"), "America/New_York"), "2025-02");
  equal(localMonth(at("2025-02-28T20:00:00Z"), "Asia/Tokyo"), "2025-03");
  equal(offsetAt(at("2025-01-01T00:00:00.500Z"), "Asia/Kathmandu"), (5 * 60 + 45) * 60_000);
  equal(addDays("2024-02-28", 1), "2024-02-29");
  equal(addDays("2025-12-31", 1), "2026-01-01");
  equal(addDays("2025-03-01", -1), "2025-02-28");
});

Deno.test("start of next month in the zone", () => {
  equal(iso(startOfNextMonth(at("2025-01-31T23:30:00Z"), "UTC")), "2025-02-01T00:00:00.000Z");
  // 2025-01-31T23:30Z is already February in Tokyo.
  equal(
    iso(startOfNextMonth(at("2025-01-31T23:30:00Z"), "Asia/Tokyo")),
    "2025-02-28T15:00:00.000Z",
  );
  equal(
    iso(startOfNextMonth(at("2025-12-15T00:00:00Z"), "America/New_York")),
    "2026-01-01T05:00:00.000Z",
  );
});

Deno.test("unknown zones fall back to UTC", () => {
  equal(safeTimeZone("Mars/Olympus"), "UTC");
  equal(safeTimeZone(undefined), "UTC");
  equal(safeTimeZone("Europe/Paris"), "Europe/Paris");
});

Deno.test("a range of calendar days, both ends inclusive, either open", () => {
  const tz = "Asia/Kathmandu";
  const r = dayRange("2025-03-01", "2025-03-02", tz);
  equal(iso(r.fromMs!), "2025-02-28T18:15:00.000Z");
  equal(iso(r.toMs!), "2025-03-02T18:15:00.000Z");
  equal(dayRange(undefined, "2025-03-02", tz).fromMs, undefined);
  equal(dayRange("2025-03-02", undefined, tz).toMs, undefined);
});

Deno.test("calendar dates of every four-digit year: years 0 to 99 and the end of 9999", () => {
  // Date.UTC reads years 0 to 99 as 1900 to 1999; these must stay in their own century.
  equal(iso(startOfDay("0050-03-01", "UTC")), "0050-03-01T00:00:00.000Z");
  equal(addDays("0001-12-31", 1), "0002-01-01");
  equal(localDate(at("0001-06-01T00:00:00Z"), "UTC"), "0001-06-01");
  // Before the Common Era Intl counts years backwards (2 BC is year -1).
  equal(localDate(at("0000-01-01T00:00:00Z"), "America/New_York"), "-0001-12-31");
  // New York kept local mean time then: 4:56:02 behind UTC.
  equal(iso(startOfDay("0000-01-01", "America/New_York")), "0000-01-01T04:56:02.000Z");
  // The day after 9999-12-31 is in year 10000.
  equal(addDays("9999-12-31", 1), "10000-01-01");
  equal(iso(dayRange(undefined, "9999-12-31", "UTC").toMs!), "+010000-01-01T00:00:00.000Z");
  equal(
    iso(startOfNextMonth(at("9999-12-15T00:00:00Z"), "UTC")),
    "+010000-01-01T00:00:00.000Z",
  );
});
