// @ts-check
/**
 * Carriers on the order page: the carrier's scans for the order's tracking number
 * (`GET /api/carrier-status`), and the carrier a tracking number looks like while it is typed
 * (`GET /api/carriers/detect`).
 */
import { html } from "htm/preact";
import { useEffect, useState } from "preact/hooks";
import { api, ApiError, ok } from "../api.js";
import { dateTime } from "../format.js";
import { session } from "../session.js";
import { ErrorText, Loading, useAction } from "../ui.js";

/** @typedef {import("../api.js").Schemas} Schemas */
/** @typedef {Schemas["CarrierKey"]} CarrierKey */
/** @typedef {Schemas["CarrierStatus"]} CarrierStatus */

/**
 * Every carrier the API knows, as a record the generated types keep complete.
 * @type {Record<CarrierKey, string>}
 */
const CARRIERS = {
  ups: "UPS",
  fedex: "FedEx",
  usps: "USPS",
  dhl: "DHL eCommerce / Paket",
  "dhl-express": "DHL Express",
};

/**
 * A carrier as people know it (UPS, FedEx, USPS, DHL), or the value as stored.
 * @param {string | undefined} carrier
 */
export const carrierName = (carrier) =>
  carrier === undefined ? undefined : isCarrier(carrier) ? CARRIERS[carrier] : carrier;

/** @type {Record<CarrierStatus["status"], string>} */
const STATUS = {
  pre_transit: "Label created, not scanned yet",
  in_transit: "In transit",
  out_for_delivery: "Out for delivery",
  delivered: "Delivered",
  exception: "Delivery problem",
  unknown: "The carrier does not know this number yet",
};

/** @param {string | undefined} value @returns {value is CarrierKey} */
const isCarrier = (value) => value !== undefined && Object.hasOwn(CARRIERS, value);

/**
 * A scan's time: an instant in the account's timezone; a carrier's local time (no zone) or a
 * date as the carrier gave it.
 * @param {string | undefined} time
 * @param {string | undefined} zone
 */
function scanTime(time, zone) {
  if (!time) return "";
  if (/[zZ]$|[+-]\d\d:\d\d$/.test(time)) return dateTime(time, zone);
  return time.replace("T", " ").slice(0, 16);
}

/**
 * The carrier's scans for an order. Asked when the page opens (the API serves a recent answer
 * from its cache); a live answer may have moved the order, so `onMoved` reloads it.
 * @param {{trackingNumber?: string, carrier?: string, onMoved: () => void}} props
 */
export function CarrierEvents({ trackingNumber, carrier, onMoved }) {
  const zone = session()?.user.timezone;
  const [answer, setAnswer] = useState(/** @type {CarrierStatus | null} */ (null));
  const check = useAction(async () => {
    if (!trackingNumber) return;
    const result = await ok(api.GET("/api/carrier-status", {
      params: { query: { trackingNumber, carrier: isCarrier(carrier) ? carrier : undefined } },
    }));
    setAnswer(result);
    if (!result.cached) onMoved();
  });
  useEffect(() => {
    setAnswer(null);
    if (trackingNumber) check.run();
  }, [trackingNumber, carrier]);
  // 503: this server has no credentials for the carrier. Not an error of the order, and asking
  // again changes nothing: one quiet line, no button.
  const notSetUp = check.error instanceof ApiError && check.error.status === 503;
  const named = isCarrier(carrier) ? CARRIERS[carrier] : "this carrier";
  return html`
    <section class="panel" aria-labelledby="carrier-events" aria-busy=${check.busy}>
      <h2 id="carrier-events">Carrier events</h2>
      ${!trackingNumber &&
        html`<p class="sub">No tracking number: add one in the details to follow the parcel.</p>`}
      ${check.busy && !answer && html`<${Loading} label="Asking the carrier…" />`}
      ${notSetUp
        ? html`<p class="sub">Live tracking for ${named} is not set up on this server.</p>`
        : html`<${ErrorText} error=${check.error} />`}
      ${answer && html`
        <p><strong>${CARRIERS[answer.carrier]}: ${STATUS[answer.status]}</strong>
          <span class="sub"> · ${answer.eventCount} ${answer.eventCount === 1
            ? "scan"
            : "scans"}${answer.estimatedDelivery
            ? ` · expected ${answer.estimatedDelivery}`
            : ""} · checked ${dateTime(answer.checkedAt, zone)}</span></p>
        <ol class="history scans">
          ${answer.events.map((e) =>
            html`
              <li>
                <p>${e.description ?? "Scan"}</p>
                <p class="sub">${[scanTime(e.time, zone), e.location].filter(Boolean).join(
                  " · ",
                )}</p>
              </li>
            `
          )}
        </ol>
      `}
      ${trackingNumber && !notSetUp && html`
        <div class="actions">
          <button type="button" class="secondary small" onClick=${() => check.run()}
            disabled=${check.busy} aria-busy=${check.busy}>
            ${check.busy ? "Asking…" : "Check again"}</button>
        </div>
      `}
    </section>
  `;
}

/**
 * Under the tracking number field: the carrier it looks like, asked once typing pauses, and a
 * button to put that carrier in the carrier field.
 * @param {{trackingNumber: string, carrier: string, onUse: (carrier: string) => void}} props
 */
export function DetectedCarrier({ trackingNumber, carrier, onUse }) {
  const [found, setFound] = useState(/** @type {Schemas["CarrierDetection"] | null} */ (null));
  const number = trackingNumber.trim();
  useEffect(() => {
    setFound(null);
    if (number.length < 8) return;
    let live = true;
    const timer = setTimeout(() => {
      ok(api.GET("/api/carriers/detect", { params: { query: { trackingNumber: number } } }))
        .then((r) => live && setFound(r), () => {});
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [number]);
  const key = found?.valid ? found.carrier : undefined;
  return html`
    <p class="detected" role="status">
      ${found && !key && "Not a tracking number any supported carrier uses."}
      ${key && html`Looks like ${CARRIERS[key]}.`}
      ${key && carrier.trim() !== key && html`
        <button type="button" class="secondary small"
          onClick=${() => onUse(key)}>Use ${CARRIERS[key]}</button>
      `}
    </p>
  `;
}
