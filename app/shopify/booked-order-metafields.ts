/**
 * The app metafields a booked order carries (namespace `$app`). Without a definition an app-owned metafield is
 * private to the app that wrote it: the merchant would never see these. shopify.app.toml declares each one under
 * `[order.metafields.app.<key>]` with the merchant's read access, so they show on the order in Shopify's admin;
 * only Dakiya writes them.
 */
export const BOOKED_ORDER_METAFIELDS = {
  awb: { type: "single_line_text_field", name: "AWB", description: "Every parcel's air waybill number, parcel 1 first." },
  courier: { type: "single_line_text_field", name: "Courier", description: "The couriers the order's parcels were booked with." },
  tracking_url: { type: "url", name: "Tracking link", description: "The first parcel's tracking page." },
  parcels: { type: "json", name: "Parcels", description: "Each parcel's awb, courier and tracking link." },
} as const;

export type BookedOrderMetafieldKey = keyof typeof BOOKED_ORDER_METAFIELDS;

/** The admin access shopify.app.toml gives each booked-order metafield: the merchant reads, Dakiya alone writes. */
export const BOOKED_ORDER_METAFIELD_ACCESS = "merchant_read";
