import { toPaise } from "~/money";
import { indiaDate } from "~/shipping/contract";

/**
 * Everything a shipping label shows, gathered from what Dakiya already holds: the create-order body it sent, the
 * courier's answer (awb, courier, routing text), the pickup warehouse and the shop. Pure: no I/O.
 */
export interface LabelFacts {
  /** A return travels from the shopper back to the warehouse: the label's two addresses trade places. */
  direction: "forward" | "return";
  shopName: string;
  courierName: string;
  awb: string;
  /** The courier's routing text from the booking's answer (`additional_info`); empty when not known. */
  routing: string;
  orderName: string;
  payment: { mode: "cod"; collectPaise: number } | { mode: "prepaid" };
  shipTo: { name: string; company: string; address1: string; address2: string; city: string; state: string; pincode: string; phone: string };
  /** Forward: where an undelivered parcel goes back to (the warehouse). Return: where the courier collects it (the shopper). */
  returnTo: LabelAddress;
  weightKg: number;
  dimensionsCm: { length: number; breadth: number; height: number };
  items: Array<{ name: string; quantity: number; sku: string }>;
  ewaybill: string;
  /** The booking's day in India, YYYY-MM-DD. */
  bookedOn: string;
}

export interface LabelAddress {
  name: string;
  address1: string;
  address2: string;
  city: string;
  state: string;
  pincode: string;
  phone: string;
}

/** The fields of the stored create-order body a label reads; anything else in it is ignored. */
interface StoredOrderBody {
  name?: unknown;
  company_name?: unknown;
  mobile?: unknown;
  address_line_1?: unknown;
  address_line_2?: unknown;
  city?: unknown;
  state?: unknown;
  pincode?: unknown;
  products?: unknown;
  package_length?: unknown;
  package_breadth?: unknown;
  package_height?: unknown;
  package_weight?: unknown;
  payment_mode?: unknown;
  total_amount?: unknown;
  total_price?: unknown;
  ewaybill_no?: unknown;
}

export interface LabelSource {
  shopName: string;
  orderName: string;
  awb: string;
  courierName: string;
  /** The courier's routing text as the booking's answer gave it; null for shipments booked before it was kept. */
  routing: string | null;
  /** What the booking's answer left on the shipment (its zone, its delivery days), for a routing line when `routing` is null. */
  booked?: { zone: string | null; edd: string | null };
  /** The exact create-order body the booking sent (JSON). */
  requestPayload: string;
  bookedAt: Date;
  /** The pickup warehouse of a forward shipment; the warehouse a return goes back to. */
  returnTo: LabelAddress;
  /** "return": the body is a reverse order, whose address is the shopper's pickup. Forward by default. */
  direction?: "forward" | "return";
}

const text = (value: unknown): string => (typeof value === "string" || typeof value === "number" ? String(value) : "");
const number = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? value : Number(text(value)) || 0);

/**
 * For a shipment booked before the courier's routing text was kept: the route and what the booking's answer stored
 * of it (zone, delivery days), in the same order the courier's text gives them; empty when nothing is known.
 */
function routingFromBooking(source: LabelSource, city: string, pincode: string): string {
  const zone = source.booked?.zone?.trim();
  const edd = source.booked?.edd?.trim();
  if (!zone && !edd) return "";
  const place = (name: string, pin: string) => [name, pin ? `(${pin})` : ""].filter(Boolean).join(" ");
  const from = place(source.returnTo.city, source.returnTo.pincode);
  const to = place(city, pincode);
  return [from && to ? `${from} to ${to}` : "", zone ? `zone ${zone}` : "", edd ? `delivery in ${edd} days` : ""].filter(Boolean).join(", ");
}

export function labelFacts(source: LabelSource): LabelFacts {
  let body: StoredOrderBody = {};
  try {
    const parsed: unknown = JSON.parse(source.requestPayload);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) body = parsed as StoredOrderBody;
  } catch {
    // A body that is not JSON cannot have been booked; the label shows what the shipment row itself holds.
  }
  const products = Array.isArray(body.products) ? (body.products as Array<Record<string, unknown>>) : [];
  const total = body.total_amount ?? body.total_price;
  const direction = source.direction ?? "forward";
  const bodyAddress = {
    name: text(body.name),
    company: text(body.company_name),
    address1: text(body.address_line_1),
    address2: text(body.address_line_2),
    city: text(body.city),
    state: text(body.state),
    pincode: text(body.pincode),
    phone: text(body.mobile),
  };
  // A reverse order's address is where the courier collects (the shopper); it is delivered to the warehouse.
  const { company, ...shopperAddress } = bodyAddress;
  const shipTo = direction === "return" ? { ...source.returnTo, company: "" } : bodyAddress;
  return {
    direction,
    shopName: source.shopName,
    courierName: source.courierName,
    awb: source.awb,
    routing: source.routing ?? (direction === "return" ? "" : routingFromBooking(source, text(body.city), text(body.pincode))),
    orderName: source.orderName,
    // Nothing is ever collected on a return.
    payment: direction === "return" || text(body.payment_mode) === "prepaid" ? { mode: "prepaid" } : { mode: "cod", collectPaise: toPaise(number(total)) },
    shipTo,
    returnTo: direction === "return" ? { ...shopperAddress, name: [shopperAddress.name, company].filter(Boolean).join(", ") } : source.returnTo,
    weightKg: number(body.package_weight),
    dimensionsCm: { length: number(body.package_length), breadth: number(body.package_breadth), height: number(body.package_height) },
    items: products.map((product) => ({ name: text(product.product_name), quantity: number(product.quantity) || 1, sku: text(product.sku) })),
    ewaybill: text(body.ewaybill_no),
    bookedOn: indiaDate(source.bookedAt),
  };
}
