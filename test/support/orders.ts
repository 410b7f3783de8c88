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

const CITIES = [
  { city: "Bengaluru", provinceCode: "KA", zip: "560038" },
  { city: "Mumbai", provinceCode: "MH", zip: "400050" },
  { city: "New Delhi", provinceCode: "DL", zip: "110017" },
  { city: "Chennai", provinceCode: "TN", zip: "600020" },
  { city: "Pune", provinceCode: "MH", zip: "411001" },
];

/** An order a shopper might place: shippable, in India, paid or cash on delivery; `index` varies the details. */
export function shopperOrder(index: number, overrides: Record<string, unknown> = {}) {
  const place = CITIES[index % CITIES.length]!;
  const cod = index % 2 === 0;
  return {
    email: `shopper${index}@example.in`,
    tags: cod ? ["cod"] : ["prepaid"],
    financialStatus: cod ? "PENDING" : "PAID",
    transactions: [{ gateway: cod ? "Cash on Delivery (COD)" : "Razorpay", amountSet: { shopMoney: { amount: "799.00" } } }],
    shippingAddress: { firstName: "Shopper", lastName: `Number ${index}`, address1: `${10 + index}, MG Road`, city: place.city, provinceCode: place.provinceCode, zip: place.zip, countryCode: "IN", phone: `98${String(20000000 + index).padStart(8, "0")}` },
    lineItems: [{ title: "Cotton kurta", sku: `KUR-${index}`, quantity: 1, priceSet: { shopMoney: { amount: "799.00" } }, requiresShipping: true, weight: { unit: "GRAMS", value: 450 } }],
    ...overrides,
  };
}

/** Places `count` orders in the store as shoppers would (orders/create goes to the app's address, if it listens). */
export async function createOrders(store: { simulator: { placeOrder(shop: string, input: unknown): { id: string; name: string } }; domain: string }, count: number, first = 0) {
  return Array.from({ length: count }, (_, offset) => store.simulator.placeOrder(store.domain, shopperOrder(first + offset)));
}

/**
 * A shopper's cash-on-delivery order of one item stocked only at the seed's Bhiwandi warehouse and one stocked only at
 * Gurugram (store/seed.ts): Shopify routes it to both, so it ships as two parcels. `index` varies the address.
 */
export function twoWarehouseOrder(index: number, { diya = "899.00", stoles = 1, stole = "599.00", shipping = "79.00" } = {}) {
  return {
    email: `parcels${index}@example.in`,
    tags: ["cod"],
    financialStatus: "PENDING",
    transactions: [{ gateway: "Cash on Delivery (COD)", amountSet: { shopMoney: { amount: "0.00" } } }],
    shippingAddress: { firstName: "Asha", lastName: "Rao", phone: "+91 98450 12345", address1: `${index}, 3rd Cross, Indiranagar`, city: "Bengaluru", provinceCode: "KA", zip: "560038", countryCode: "IN" },
    lineItems: [
      { title: "Brass diya set", sku: "DIY-210", quantity: 1, priceSet: { shopMoney: { amount: diya } }, weight: { unit: "GRAMS", value: 1200 } },
      { title: "Pashmina stole", sku: "PSH-220", quantity: stoles, priceSet: { shopMoney: { amount: stole } }, weight: { unit: "GRAMS", value: 300 } },
    ],
    shippingLines: [{ title: "Standard", priceSet: { shopMoney: { amount: shipping } } }],
  };
}
