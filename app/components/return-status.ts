/** The tone of a Shopify return's status badge, alike on the Returns view and the ship page. */
export const RETURN_STATUS_TONES: Readonly<Record<string, "attention" | "info" | "success">> = { REQUESTED: "attention", OPEN: "info", CLOSED: "success" };
