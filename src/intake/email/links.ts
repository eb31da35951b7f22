/**
 * Links: click trackers unwrapped to the URL they lead to (research/intake.md §1.6, fixtures
 * README "trackingUrl"), opaque trackers recognised, and tracking numbers read out of carrier
 * URLs (query keys such as `tracknum`, `trknbr`, `tracking-id`, `piececode`, `tLabels`, and
 * path or fragment segments).
 */
import { detectCarrier } from "../../domain/tracking/number.ts";
import type { CarrierKey } from "../../domain/tracking/carriers.ts";
import { memoByText } from "../text.ts";

const REDIRECT_KEYS = [
  "u",
  "url",
  "redirectto",
  "redirect",
  "redirect_url",
  "target",
  "dest",
  "destination",
  "link",
  "href",
  "goto",
  "to",
  "r",
];
const MAX_URL = 4096;
const REDIRECT_PATH =
  /\/(?:gp\/[rf]\.html|ls\/click|track\/click(?:\/.*)?|click|redirect|clicktracker)\/?$/i;

/**
 * What a URL parser rewrites in an http(s) URL: `%` and `+` (decoded in hosts and queries), a
 * backslash (a slash in the path), tabs and line breaks (dropped) and non-ASCII (mapped in host
 * names). A URL without them holds only what its text shows, up to letter case, so the tests
 * below can answer "no" from the text alone.
 */
const REWRITTEN = /[%+\\\t\n\r\u0080-\uFFFF]/;
/** What a tracker whose target can be read shows: an SES `/L0/` path, `http` in the query, Mandrill. */
const TRACKER_SIGNS = /\/L0\/|\?.*http|mandrillapp/i;
/** What a URL naming a tracking number shows: a carrier's host or a tracking query key. */
const TRACKING_SIGNS =
  /ups\.com|usps\.com|fedex\.com|dhl|track|trk|trck|piececode|label|idc|awb|shipmentnumber|inquirynumber|sendungsnummer/i;

/** A mail asks about each link several times: one parse per text, the URL only read. */
const parse = memoByText((href: string): URL | null => {
  if (href.length > MAX_URL || !/^https?:\/\//i.test(href)) return null;
  try {
    return new URL(href);
  } catch {
    return null;
  }
}, 2_000);

/** Whether a URL has a query (`searchParams` is built only for those). */
function hasQuery(url: URL): boolean {
  return url.search !== "";
}

const isRedirectKey = (key: string) => REDIRECT_KEYS.includes(key.toLowerCase());

function decodeOnce(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The target of one click tracker, or null when `href` is not one that carries its target. */
function unwrapOnce(href: string): string | null {
  if (!REWRITTEN.test(href) && !TRACKER_SIGNS.test(href)) return null;
  const url = parse(href);
  if (!url) return null;
  // AWS SES (awstrack.me): /L0/<encoded url>/1/<id>
  const l0 = /\/L0\/([^/]+)/.exec(url.pathname);
  if (l0) {
    const target = decodeOnce(l0[1]);
    if (/^https?:\/\//i.test(target)) return target;
  }
  if (!hasQuery(url)) return null;
  for (const [key, value] of url.searchParams) {
    if (!isRedirectKey(key)) continue;
    const target = /^https?%3a/i.test(value) ? decodeOnce(value) : value;
    if (/^https?:\/\//i.test(target)) return target;
  }
  // Mandrill: ?p=<base64 JSON whose "p" is JSON with the "url">
  const p = /mandrillapp\.com$/i.test(url.hostname) ? url.searchParams.get("p") : null;
  if (p) {
    const target = mandrillTarget(p);
    if (target) return target;
  }
  return null;
}

function mandrillTarget(p: string): string | null {
  try {
    const outer = JSON.parse(atob(p.replace(/-/g, "+").replace(/_/g, "/")));
    const inner = typeof outer.p === "string" ? JSON.parse(outer.p) : outer;
    const target = inner.url ?? inner.u;
    return typeof target === "string" && /^https?:\/\//i.test(target) ? target : null;
  } catch {
    return null;
  }
}

/** A link's final target after unwrapping up to three nested click trackers. */
export function unwrapLink(href: string): string {
  let current = href.trim();
  for (let i = 0; i < 3; i++) {
    const next = unwrapOnce(current);
    if (!next || next === current) break;
    current = next;
  }
  return current;
}

/** Trackers whose target cannot be read from the link (Salesforce `qs=`, SendGrid/Klaviyo `upn=`). */
export function isOpaqueTracker(href: string): boolean {
  const url = parse(href);
  if (!url) return true;
  // A redirect endpoint whose target could not be read out of it.
  if (REDIRECT_PATH.test(url.pathname)) return true;
  return (hasQuery(url) && (url.searchParams.has("qs") || url.searchParams.has("upn"))) ||
    /(?:^|\.)(?:click|links|trk|email|e|clicks|link|t)\.[^.]+\.[a-z]+$/i.test(url.hostname) &&
      url.pathname.length <= 1;
}

const CARRIER_HOSTS: [RegExp, CarrierKey | null][] = [
  [/(?:^|\.)ups\.com$/i, "ups"],
  [/(?:^|\.)fedex\.com$/i, "fedex"],
  [/(?:^|\.)usps\.com$/i, "usps"],
  [/(?:^|\.)express\.dhl$/i, "dhl-express"],
  // DHL's sites track both its parcel and its express numbers.
  [/(?:^|\.)dhl\.(?:de|com|co\.uk|fr|es)$/i, null],
];

/**
 * The carrier of a number on a carrier's own tracking page: the site's. A number whose shape
 * is another carrier's (a DHL Paket SSCC outside the prefix we know has a USPS shape) is the
 * site's carrier's all the same; on DHL's sites a DHL shape says parcel or express.
 */
function siteCarrier(site: [RegExp, CarrierKey | null] | undefined, shaped: CarrierKey) {
  if (!site) return shaped;
  return site[1] ?? (shaped.startsWith("dhl") ? shaped : "dhl");
}

/** Whether a URL is on a carrier's own site. */
export function isCarrierUrl(href: string): boolean {
  const url = parse(href);
  return !!url && CARRIER_HOSTS.some(([re]) => re.test(url.hostname));
}

export interface UrlTracking {
  trackingNumber: string;
  carrier: CarrierKey;
  checked: boolean;
}

/** Query keys that carry a tracking number on carrier and store pages. */
const TRACKING_KEYS =
  /^(?:tracknum|trknbr|tracking-?id|tracking_?numbers?|trackingnumbers?|tracknumbers?|piececode|t?labels|qtc_tlabels\d*|selectedtrcknum|idc|awb|shipmentnumber|inquirynumber\d*|tracking|trackingcode|sendungsnummer|id)$/i;

/**
 * The tracking numbers a URL names: on a carrier's site in any query value, path segment or the
 * fragment; elsewhere only in query keys made for tracking numbers (store order pages carry
 * order numbers that can pass a carrier's check digit by chance).
 */
export function trackingNumbersInUrl(href: string): UrlTracking[] {
  if (!REWRITTEN.test(href) && !TRACKING_SIGNS.test(href)) return [];
  const url = parse(href);
  if (!url) return [];
  const site = CARRIER_HOSTS.find(([re]) => re.test(url.hostname));
  const carrierSite = site !== undefined;
  const parts: string[] = [];
  const wanted = (key: string) =>
    carrierSite || (TRACKING_KEYS.test(key) && key.toLowerCase() !== "id");
  for (const [key, value] of hasQuery(url) ? url.searchParams : []) {
    if (wanted(key)) {
      parts.push(...value.split(/[,;|\s]+/));
    }
  }
  if (carrierSite) {
    parts.push(...url.pathname.split("/"));
    parts.push(...url.hash.split(/[/?&=#]+/));
  }
  const out: UrlTracking[] = [];
  for (const part of parts.slice(0, 60)) {
    const detection = detectCarrier(decodeOnce(part));
    if (detection.valid && !out.some((t) => t.trackingNumber === detection.trackingNumber)) {
      out.push({
        trackingNumber: detection.trackingNumber,
        carrier: siteCarrier(site, detection.carrier),
        checked: detection.form !== "dhl-piece-id" && !detection.form.startsWith("dhl-ecommerce"),
      });
    }
  }
  return out;
}
