import { describe, expect, it } from "vitest";
import type { MappingSettings } from "../shopify/order-mapping";
import type { ShopifyReturn } from "../shopify/return-queries";
import { toReverseCourierOrder } from "./return-mapping";

const LOCATION = "gid://shopify/Location/71001";
const settings: MappingSettings = {
  codTag: "cod",
  prepaidTag: "prepaid",
  defaultPackage: { length: 20, breadth: 15, height: 10 },
  defaultWeightKg: 0.5,
  presets: [],
  locationWarehouses: { [LOCATION]: 7 },
  defaultWarehouseId: null,
};
const now = new Date("2026-11-25T06:00:00Z");

function aReturn(overrides: { status?: ShopifyReturn["status"]; address?: Partial<NonNullable<ShopifyReturn["order"]["shippingAddress"]>> | null; phone?: string | null; delivered?: boolean; location?: string | null } = {}): ShopifyReturn {
  const address = overrides.address === null ? null : { name: "Asha Rao", firstName: "Asha", lastName: "Rao", company: null, phone: "+91 98450 12345", address1: "12, 3rd Cross, Indiranagar", address2: null, city: "Bengaluru", province: "Karnataka", zip: "560038", countryCodeV2: "IN" as const, ...overrides.address };
  return {
    id: "gid://shopify/Return/9001",
    name: "#1001-R1",
    status: overrides.status ?? "OPEN",
    createdAt: "2026-11-24T10:00:00Z",
    order: {
      id: "gid://shopify/Order/5001",
      name: "#1001",
      email: "asha@example.in",
      phone: overrides.phone ?? null,
      tags: ["vip"],
      shippingAddress: address,
      billingAddress: null,
      fulfillments: [{ id: "gid://shopify/Fulfillment/1", location: overrides.location === null ? null : { id: overrides.location ?? LOCATION }, fulfillmentLineItems: { nodes: [{ id: "gid://shopify/FulfillmentLineItem/11" }] } }],
    },
    returnLineItems: {
      pageInfo: { hasNextPage: false },
      nodes: [
        {
          id: "gid://shopify/ReturnLineItem/21",
          quantity: 2,
          returnReasonNote: "",
          customerNote: "Too small",
          returnReasonDefinition: { handle: "size-too-small", name: "Size too small" },
          totalWeight: { unit: "GRAMS", value: 900 },
          fulfillmentLineItem: { id: "gid://shopify/FulfillmentLineItem/11", lineItem: { id: "gid://shopify/LineItem/31", title: "Handloom cotton kurta", sku: "KUR-101", discountedUnitPriceSet: { shopMoney: { amount: "799.00" } } } },
        },
      ],
    },
    reverseFulfillmentOrders: {
      nodes: [
        {
          id: "gid://shopify/ReverseFulfillmentOrder/41",
          status: "OPEN",
          lineItems: { nodes: [{ id: "gid://shopify/ReverseFulfillmentOrderLineItem/51", totalQuantity: 2, fulfillmentLineItem: { id: "gid://shopify/FulfillmentLineItem/11" } }] },
          reverseDeliveries: { nodes: overrides.delivered ? [{ id: "gid://shopify/ReverseDelivery/61", deliverable: { tracking: { number: "AWB1", url: null } } }] : [] },
        },
      ],
    },
  };
}

const codes = (ret: ShopifyReturn) => toReverseCourierOrder(ret, { settings, now }).problems.map((problem) => problem.code);

describe("a Shopify return as the courier's reverse Order", () => {
  it("picks up from the shopper's address and delivers to the warehouse of the location that shipped, prepaid, with the items' weight", () => {
    const { shipment, problems } = toReverseCourierOrder(aReturn(), { settings, now });
    expect(problems).toEqual([]);
    expect(shipment!.fields).toEqual({
      order_id: "1001-R1",
      order_date: "2026-11-25",
      order_type: "reverse",
      name: "Asha Rao",
      mobile: "9845012345",
      email: "asha@example.in",
      address_line_1: "12, 3rd Cross, Indiranagar",
      city: "Bengaluru",
      state: "Karnataka",
      pincode: "560038",
      products: [{ product_name: "Handloom cotton kurta", price: 799, quantity: 2, sku: "KUR-101" }],
      package_length: 20,
      package_breadth: 15,
      package_height: 10,
      package_weight: 0.9,
      payment_mode: "prepaid",
      total_amount: 1598,
      warehouse_id: 7,
    });
    expect(shipment).toMatchObject({ locationGid: LOCATION, reverseFulfillmentOrderId: "gid://shopify/ReverseFulfillmentOrder/41", deliveryLines: [{ reverseFulfillmentOrderLineItemId: "gid://shopify/ReverseFulfillmentOrderLineItem/51", quantity: 2 }], reasons: ["size-too-small"], totalGrams: 900 });
  });

  it("names every problem that stops the pickup, with its fix", () => {
    expect(codes(aReturn({ address: { phone: null } }))).toEqual(["PHONE_MISSING"]);
    expect(codes(aReturn({ address: { phone: "12345" } }))).toEqual(["PHONE_INVALID"]);
    expect(codes(aReturn({ address: { zip: "56003" } }))).toEqual(["PINCODE_INVALID"]);
    expect(codes(aReturn({ address: { zip: null } }))).toEqual(["PINCODE_MISSING"]);
    expect(codes(aReturn({ address: { countryCodeV2: "AE" } }))).toEqual(["OUTSIDE_INDIA"]);
    expect(codes(aReturn({ address: null }))).toEqual(["NO_SHIPPING_ADDRESS"]);
    expect(codes(aReturn({ location: "gid://shopify/Location/9" }))).toEqual(["NO_WAREHOUSE"]);
    expect(codes(aReturn({ status: "REQUESTED" }))).toEqual(["RETURN_NOT_OPEN"]);
    expect(codes(aReturn({ delivered: true }))).toEqual(["NOTHING_TO_RETURN"]);
    const [requested] = toReverseCourierOrder(aReturn({ status: "REQUESTED" }), { settings, now }).problems;
    expect(requested).toEqual({
      code: "RETURN_NOT_OPEN",
      message: "The return is waiting for your approval.",
      fix: "Approve the return in Shopify; Dakiya books the pickup once it is open.",
      params: { subject: "return", status: "REQUESTED" },
    });
    for (const problem of toReverseCourierOrder(aReturn({ address: { phone: null, zip: "1" } }), { settings, now }).problems) expect(problem.fix.length).toBeGreaterThan(10);
  });
});
