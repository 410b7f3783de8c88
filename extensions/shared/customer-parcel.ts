/**
 * The shopper's view of one parcel, as the order status page's extension (extensions/dakiya-order-status) reads it
 * from `GET /api/customer/parcels/{fulfillment id}` with the customer account's session token. The app answers it
 * (app/tracking/customer-parcels.server.ts) with these types, so the two cannot drift apart. Pure.
 *
 * 200: `CustomerParcelAnswer`. 401 `{ "error", "code": "login_required" }`: the token names no customer (the page was
 * opened without signing in). 404: no parcel of this customer ships with that fulfillment — not Dakiya's, another
 * customer's, or unknown, alike. 400: the id is not a fulfillment's number. 503 with Retry-After: Shopify was too busy
 * to say whose order it is (read once per order); try again shortly.
 */

/** Where the parcel is, as the shopper is told (the extension words each in the shopper's language). */
export type ParcelStage = "preparing" | "in_transit" | "out_for_delivery" | "delivery_failed" | "delivered" | "returning" | "returned" | "problem" | "cancelled";

export interface ParcelTimelineEntry {
  /** The courier's stage code (2 Manifested … 15 Damaged), worded by the extension. */
  code: number;
  /** ISO time. */
  at: string;
  /** The courier's own words, in English as the courier gave them. */
  activity: string;
  location: string | null;
}

/**
 * The shopper's answer to a failed delivery, as the app will take it: what they may choose and where the extension
 * sends their answer. Null while the app takes no answer; the extension then shows the attempt and what happens
 * next, and the answer form in its place once this is filled in.
 */
export interface FailedAttemptAnswerForm {
  /** The app's path the answer is POSTed to, with the same session token. */
  submitPath: string;
  choices: readonly ("reattempt" | "reschedule" | "change_address" | "change_phone" | "return_to_seller")[];
  /** The latest day a rescheduled delivery may be asked for, ISO date. */
  latestDate: string | null;
}

export interface FailedAttemptView {
  /** 1 for the parcel's first failed attempt. */
  attempt: number;
  /** The courier's reason, in its words. */
  reason: string;
  /** ISO time. */
  at: string;
  answerForm: FailedAttemptAnswerForm | null;
}

export interface CustomerParcel {
  /** "#1042", or "#1042-2" for the order's second parcel. */
  name: string;
  stage: ParcelStage;
  courierName: string | null;
  awb: string | null;
  trackingUrl: string | null;
  /** ISO time; null once delivered, or when the courier gave none. */
  estimatedDelivery: string | null;
  deliveredAt: string | null;
  /** The courier's updates, newest first. */
  timeline: ParcelTimelineEntry[];
  /** Set while the parcel's latest update is a failed delivery attempt. */
  failedAttempt: FailedAttemptView | null;
}

export interface CustomerParcelAnswer {
  parcel: CustomerParcel;
}

/** The app's path for a fulfillment's parcel: "gid://shopify/Fulfillment/123" → "/api/customer/parcels/123". */
export function customerParcelPath(fulfillmentGid: string): string {
  const match = /^gid:\/\/shopify\/Fulfillment\/(\d{1,20})$/.exec(fulfillmentGid);
  if (!match) throw new Error(`Not a fulfillment GID: ${fulfillmentGid}`);
  return `/api/customer/parcels/${match[1]}`;
}
