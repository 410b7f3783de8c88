import { randomUUID } from "node:crypto";
import { indiaDate, type CreateOrderInput } from "~/shipping/contract";

/** A valid create-order body for Bengaluru, dated today in India; override any field. */
export function sampleOrder(overrides: Partial<CreateOrderInput> & Record<string, unknown> = {}): CreateOrderInput {
  return {
    order_id: `T-${randomUUID().slice(0, 12)}`,
    order_date: indiaDate(new Date()),
    name: "Asha Rao",
    mobile: "+91 98200 12345",
    address_line_1: "12, 3rd Cross, Indiranagar",
    address_line_2: "Near 100 Feet Road",
    city: "Bengaluru",
    state: "Karnataka",
    pincode: "560038",
    products: [
      { product_name: "Handloom cotton kurta", price: 1299, quantity: 1, sku: "KUR-001", tax: 65, discount: 0 },
      { product_name: "Block-print dupatta", price: 499, quantity: 2, sku: "DUP-014" },
    ],
    package_length: 30,
    package_breadth: 25,
    package_height: 8,
    package_weight: 0.9,
    payment_mode: "cod",
    total_amount: 2297,
    logistic_id: 1,
    ...overrides,
  } as CreateOrderInput;
}

export const daysAgoInIndia = (days: number, now = new Date()) => indiaDate(new Date(now.getTime() - days * 86_400_000));
