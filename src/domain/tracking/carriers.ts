/** The carrier keys of the spec: the shipping platforms whose status the service looks up. */
export const CARRIER_KEYS = ["ups", "fedex", "usps", "dhl", "dhl-express"] as const;

export type CarrierKey = typeof CARRIER_KEYS[number];

/**
 * Display names. `dhl` is DHL's parcel side (DHL eCommerce outside Germany, DHL Paket inside),
 * as research/carriers.md groups it; `dhl-express` is the air-waybill business.
 */
export const CARRIER_NAMES: Readonly<Record<CarrierKey, string>> = {
  ups: "UPS",
  fedex: "FedEx",
  usps: "USPS",
  dhl: "DHL eCommerce / Paket",
  "dhl-express": "DHL Express",
};

/** Every carrier as `{key, name}`, in the order of `CARRIER_KEYS`. */
export const CARRIERS: readonly { key: CarrierKey; name: string }[] = CARRIER_KEYS.map((key) => ({
  key,
  name: CARRIER_NAMES[key],
}));
