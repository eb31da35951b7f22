/** The carrier keys of the spec: the shipping platforms whose status the service looks up. */
export const CARRIER_KEYS = ["ups", "fedex", "usps", "dhl", "dhl-express"] as const;
