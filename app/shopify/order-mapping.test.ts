import { beforeAll, describe, expect, it } from "vitest";
import { runAdminGraphql } from "../../store/admin-api";
import { LOCATION_BHIWANDI, LOCATION_GURUGRAM, seedShop } from "../../store/seed";
import { createOrderRequestSchema } from "../shipping/contract";
import { normaliseMobile, toCourierOrder, toPlainText, withPlainText, type MappingSettings, type ProblemCode } from "./order-mapping";
import { ORDER_FOR_BOOKING, type ShopifyOrder } from "./queries";
import { countryName, ORDER_READ_LIMITS, problemInWords } from "./readiness-checks";
import { orderMutations } from "../../store/order-mutations";

const NOW = new Date("2026-03-10T06:30:00Z");
const settings: MappingSettings = {
  codTag: "cod",
  prepaidTag: "prepaid",
  defaultPackage: { length: 20, breadth: 15, height: 10 },
  defaultWeightKg: 0.5,
  presets: [
    { name: "Small box", length: 22, breadth: 16, height: 8, maxWeightKg: 1 },
    { name: "Medium box", length: 35, breadth: 25, height: 15, maxWeightKg: 5 },
  ],
  locationWarehouses: { [LOCATION_BHIWANDI]: 1, [LOCATION_GURUGRAM]: 2 },
  defaultWarehouseId: null,
};

const orders = new Map<string, ShopifyOrder>();
beforeAll(async () => {
  const shop = seedShop("mapping.myshopify.com", NOW.getTime());
  for (const seeded of shop.orders) {
    // As booking reads an order of more than 11 lines: again, with as many as one query may ask for.
    const answer = await runAdminGraphql(shop, { query: ORDER_FOR_BOOKING, variables: { id: seeded.id, lineItemsFirst: ORDER_READ_LIMITS.lineItems } }, { throttle: { maximumAvailable: 1e9, restoreRate: 1e9 }, now: () => NOW });
    expect(answer.body.errors).toBeUndefined();
    orders.set(seeded.name, (answer.body.data as { order: ShopifyOrder }).order);
  }
});

const map = (name: string, overrides = {}) => toCourierOrder(orders.get(name)!, { settings, now: NOW, overrides });
const codes = (name: string, overrides = {}) => map(name, overrides).problems.map((problem) => problem.code);

describe("every seed-store order", () => {
  it.each<[string, ProblemCode[]]>([
    ["#1001", []],
    ["#1002", []],
    ["#1003", []],
    ["#1004", []],
    ["#1005", []],
    ["#1006", ["EWAYBILL_REQUIRED"]],
    ["#1007", ["PINCODE_INVALID"]],
    ["#1008", ["PINCODE_MISSING"]],
    ["#1009", ["PHONE_MISSING"]],
    ["#1010", ["OUTSIDE_INDIA"]],
    ["#1011", []],
    ["#1012", ["ORDER_TOO_OLD"]],
    ["#1013", ["CANCELLED"]],
    ["#1014", []],
  ])("%s has problems %o", (name, expected) => {
    expect(codes(name)).toEqual(expected);
  });

  it("gives every problem a message and a fix in plain words", () => {
    for (const name of orders.keys()) {
      for (const problem of map(name).problems) {
        expect(problem.message).toMatch(/^[A-Z"]/);
        expect(problem.fix.length).toBeGreaterThan(10);
      }
    }
  });

  it("maps each ready order's parcels into bodies the courier service accepts", () => {
    for (const name of ["#1001", "#1002", "#1003", "#1004", "#1005", "#1011", "#1014"]) {
      for (const parcel of map(name).parcels) {
        const parsed = createOrderRequestSchema(() => NOW).safeParse({ ...parcel.fields, logistic_id: 1 });
        expect(parsed.success, `${name}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      }
    }
  });
});

describe("fields", () => {
  it("maps a prepaid UPI order: name, phone, address, products, weight, preset, warehouse", () => {
    const { shipment } = map("#1001");
    expect(shipment!.fields).toEqual({
      order_id: "1001",
      order_date: "2026-03-10",
      order_type: "forward",
      name: "Priya Sharma",
      mobile: "9845012345",
      email: "priya.sharma@example.in",
      address_line_1: "Flat 302, Prestige Lakeside Habitat",
      address_line_2: "Varthur Main Road, Whitefield",
      city: "Bengaluru",
      state: "Karnataka",
      pincode: "560066",
      products: [
        { product_name: "Handloom cotton kurta", price: 1299, quantity: 1, sku: "KUR-001", tax: 61.86, discount: 0 },
        { product_name: "Block-print dupatta", price: 499, quantity: 2, sku: "DUP-014", tax: 23.76, discount: 0 },
      ],
      package_length: 22,
      package_breadth: 16,
      package_height: 8,
      package_weight: 0.71,
      payment_mode: "prepaid",
      total_amount: 2297,
      warehouse_id: 1,
    });
    expect(shipment).toMatchObject({ weightSource: "line items", packageSource: "Small box", paymentModeSource: "financial status", locationGid: LOCATION_BHIWANDI, destination: "Bengaluru 560066" });
  });

  it("takes the payment mode from tags first, then the gateway, then the financial status", () => {
    expect(map("#1002").shipment).toMatchObject({ fields: { payment_mode: "cod" }, paymentModeSource: "tag" });
    expect(map("#1003").shipment).toMatchObject({ fields: { payment_mode: "prepaid" }, paymentModeSource: "tag" });
    expect(map("#1007").shipment).toMatchObject({ fields: { payment_mode: "cod" }, paymentModeSource: "payment gateway" });
    const untagged = { ...orders.get("#1004")!, tags: [] };
    expect(toCourierOrder(untagged, { settings, now: NOW }).problems.map((problem) => problem.code)).toEqual(["PAYMENT_MODE_UNKNOWN"]);
    expect(toCourierOrder(untagged, { settings, now: NOW, overrides: { paymentMode: "cod" } }).problems).toEqual([]);
  });

  it("normalises phones and uses the next one as alt_mobile", () => {
    expect(map("#1002").shipment!.fields.mobile).toBe("9839012345");
    expect(map("#1014").shipment!.fields).toMatchObject({ mobile: "9871123456", company_name: "Kapoor Interiors LLP", warehouse_id: 2, discount: 200 });
    expect(normaliseMobile("+91 98450 12345")).toBe("9845012345");
    expect(normaliseMobile("098390 12345")).toBe("9839012345");
    expect(normaliseMobile("12345")).toBeNull();
  });

  it("converts lb and oz, leaves out items that need no shipping, and ships only what is left", () => {
    const fields = map("#1014").shipment!.fields;
    expect(fields.products.map((product) => product.sku)).toEqual(["RUN-044", "BOT-003"]);
    expect(fields.package_weight).toBeCloseTo(2 * 0.5 * 0.45359237 + 12 * 0.028349523, 3);
    expect(map("#1011").shipment!.fields.products.map((product) => product.sku)).toEqual(["RAZ-007"]);
  });

  it("lets the merchant edit dims, weight, warehouse and e-waybill before booking", () => {
    const result = map("#1006", { ewaybillNo: "EWB481516234", length: 40, breadth: 30, height: 5, weightKg: 1.2, warehouseId: 2 });
    expect(result.problems).toEqual([]);
    expect(result.shipment).toMatchObject({
      fields: { ewaybill_no: "EWB481516234", package_length: 40, package_breadth: 30, package_height: 5, package_weight: 1.2, warehouse_id: 2 },
      weightSource: "edited",
      packageSource: "edited",
    });
  });

  it("falls back to the default weight and package only when nothing better is known", () => {
    const weightless = { ...orders.get("#1001")!, lineItems: { ...orders.get("#1001")!.lineItems, nodes: orders.get("#1001")!.lineItems.nodes.map((item) => ({ ...item, weight: null })) } };
    const { shipment } = toCourierOrder(weightless, { settings: { ...settings, presets: [] }, now: NOW });
    expect(shipment).toMatchObject({ fields: { package_weight: 0.5, package_length: 20 }, weightSource: "default weight", packageSource: "default package" });
  });

  it("says an order is 7 days old is still in time, 8 days is not", () => {
    const at = (days: number) => ({ ...orders.get("#1001")!, createdAt: new Date(NOW.getTime() - days * 86_400_000).toISOString() });
    expect(toCourierOrder(at(7), { settings, now: NOW }).problems).toEqual([]);
    expect(toCourierOrder(at(8), { settings, now: NOW }).problems.map((problem) => problem.code)).toEqual(["ORDER_TOO_OLD"]);
  });
});

describe("text PostgreSQL or the courier cannot hold", () => {
  /** #1001 as a checkout or an app might have written it: NUL, line breaks, tabs, escapes and broken UTF-16 everywhere. */
  function garbled(): ShopifyOrder {
    const order = structuredClone(orders.get("#1001")!);
    const address = order.shippingAddress!;
    order.name = "#10\u000001";
    order.email = "priya\u0000@example.in";
    Object.assign(address, {
      name: "Priya\u0000 Sharma\n",
      address1: "Flat 4B,\r\nLake View\tApartments\u0007",
      address2: "Near\u001b[31m temple",
      city: "Bengaluru\u0000",
      province: "Karna\u0086taka",
      zip: "560\u0000038",
      phone: "98450\u000012345",
      company: "Sharma\ud800 Textiles",
    });
    order.lineItems.nodes[0]!.title = "Cotton\u0000 kurta\n(blue)";
    return order;
  }
  const CONTROL = /\p{Cc}|\p{Cs}/u;

  it("maps an order whose text holds control characters into a body the courier service accepts", () => {
    const { shipment, problems } = toCourierOrder(garbled(), { settings, now: NOW });
    expect(problems).toEqual([]);
    const fields = shipment!.fields;
    expect(fields).toMatchObject({
      order_id: "1001",
      name: "Priya Sharma",
      address_line_1: "Flat 4B, Lake View Apartments",
      address_line_2: "Near[31m temple",
      city: "Bengaluru",
      state: "Karnataka",
      pincode: "560038",
      mobile: "9845012345",
      company_name: "Sharma\uFFFD Textiles",
    });
    expect(fields.products[0]!.product_name).toBe("Cotton kurta (blue)");
    expect(JSON.stringify(fields)).not.toMatch(/\\u00[01]/);
    const parsed = createOrderRequestSchema(() => NOW).safeParse({ ...fields, logistic_id: 1 });
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  });

  it("quotes no control character in a problem's words", () => {
    const order = garbled();
    order.shippingAddress!.zip = "5600\u00003";
    order.shippingAddress!.phone = "12\u00003";
    const { problems } = toCourierOrder(order, { settings, now: NOW });
    expect(problems.map((problem) => problem.code)).toEqual(["PINCODE_INVALID", "PHONE_INVALID"]);
    for (const problem of problems) expect(problem.message).not.toMatch(CONTROL);
  });

  it("keeps line breaks only where text may hold them, everywhere in a value read from Shopify", () => {
    expect(toPlainText("a\u0000b\nc\td\u0085e\u0086f\ud83dx")).toBe("ab c d ef\uFFFDx");
    expect(toPlainText("Leave at the door.\r\nCall first.\u0000", { lineBreaks: true })).toBe("Leave at the door.\r\nCall first.");
    expect(withPlainText({ note: "one\ntwo\u0000", tags: ["vip\u0000"], weight: { value: 2, unit: "KILOGRAMS" }, cancelledAt: null })).toEqual({
      note: "one\ntwo",
      tags: ["vip"],
      weight: { value: 2, unit: "KILOGRAMS" },
      cancelledAt: null,
    });
  });
});

describe("country names", () => {
  it("names the country an order ships to instead of its code", () => {
    expect(countryName("AE")).toBe("United Arab Emirates");
    expect(countryName("GB")).toBe("United Kingdom");
    expect(countryName(null)).toBe("another country");
  });
});

describe("parcels: one per fulfillment order, at most 10 products each", () => {
  const shop = seedShop("parcels.myshopify.com", NOW.getTime());
  const read = async (orderId: string) => {
    const answer = await runAdminGraphql(shop, { query: ORDER_FOR_BOOKING, variables: { id: orderId, lineItemsFirst: ORDER_READ_LIMITS.lineItems } }, { throttle: { maximumAvailable: 1e9, restoreRate: 1e9 }, now: () => NOW });
    expect(answer.body.errors).toBeUndefined();
    return (answer.body.data as { order: ShopifyOrder }).order;
  };
  const place = (input: Record<string, unknown>) =>
    (orderMutations(shop, { now: () => NOW, emit: () => undefined }).orderCreate({
      order: { tags: ["cod"], shippingAddress: { firstName: "Asha", lastName: "Rao", phone: "+91 98450 12345", address1: "12, MG Road", city: "Pune", provinceCode: "MH", zip: "411001", countryCode: "IN" }, ...input },
    }) as { order: { id: string } }).order.id;
  const line = (title: string, sku: string, amount: string, quantity = 1, grams = 400) => ({ title, sku, quantity, priceSet: { shopMoney: { amount } }, weight: { unit: "GRAMS", value: grams } });

  it("books an order whose items sit at two warehouses as two parcels, each from its warehouse with only its items", async () => {
    const order = await read(place({ lineItems: [line("Brass diya set", "DIY-210", "899.00", 1, 1200), line("Pashmina stole", "PSH-220", "1099.00", 2, 300)], shippingLines: [{ title: "Standard", priceSet: { shopMoney: { amount: "79.00" } } }] }));
    const { parcels, problems, shipment } = toCourierOrder(order, { settings, now: NOW });
    expect(problems).toEqual([]);
    expect(parcels.map((parcel) => [parcel.locationGid, parcel.fields.warehouse_id, parcel.fields.products.map((product) => `${product.sku}×${product.quantity}`), parcel.fields.package_weight])).toEqual([
      [LOCATION_BHIWANDI, 1, ["DIY-210×1"], 1.2],
      [LOCATION_GURUGRAM, 2, ["PSH-220×2"], 0.6],
    ]);
    // The order as one, for the lists and the rules: every item, the whole weight and what the shopper pays.
    expect(shipment).toMatchObject({ fields: { package_weight: 1.8, total_amount: 3176 } });
    for (const parcel of parcels) expect(createOrderRequestSchema(() => NOW).safeParse({ ...parcel.fields, logistic_id: 1 }).success).toBe(true);
  });

  it("has each COD parcel collect its items' share of what the shopper owes, the shares adding up to the paisa", async () => {
    const order = await read(place({ lineItems: [line("Brass diya set", "DIY-210", "333.33"), line("Pashmina stole", "PSH-220", "666.67"), line("Kurta", "KUR-9", "100.01")], shippingLines: [{ title: "Standard", priceSet: { shopMoney: { amount: "49.99" } } }] }));
    const { parcels } = toCourierOrder(order, { settings, now: NOW });
    const total = Number(order.totalOutstandingSet.shopMoney.amount);
    expect(total).toBe(1150);
    const amounts = parcels.map((parcel) => parcel.fields.total_amount);
    expect(Math.round(amounts.reduce((sum, each) => sum + each, 0) * 100)).toBe(total * 100);
    // In proportion to the items: ₹433.34 of goods at Bhiwandi (the diya and the kurta, stocked there), ₹666.67 at Gurugram.
    expect(amounts).toEqual([453.03, 696.97]);
    expect(parcels.map((parcel) => parcel.fields.shipping_charge)).toEqual([19.69, 30.3]);
    const prepaid = toCourierOrder(order, { settings, now: NOW, overrides: { paymentMode: "prepaid" } }).parcels;
    expect(prepaid.map((parcel) => parcel.fields.payment_mode)).toEqual(["prepaid", "prepaid"]);
  });

  it("has a parcel booked after another shipped collect what the order still owes less what Dakiya's earlier parcel carries, before and after that cash is recorded in Shopify", async () => {
    const id = place({ lineItems: [line("Brass diya set", "DIY-210", "333.33"), line("Pashmina stole", "PSH-220", "666.67"), line("Kurta", "KUR-9", "100.01")], shippingLines: [{ title: "Standard", priceSet: { shopMoney: { amount: "49.99" } } }] });
    const both = toCourierOrder(await read(id), { settings, now: NOW }).parcels;
    expect(both.map((parcel) => parcel.fields.total_amount)).toEqual([453.03, 696.97]);
    const admin = (query: string, variables: Record<string, unknown>) => runAdminGraphql(shop, { query, variables }, { throttle: { maximumAvailable: 1e9, restoreRate: 1e9 }, now: () => NOW });
    // The Bhiwandi parcel ships: its fulfillment order closes, and Shopify still counts the whole order as owed.
    const shipped = await admin(`mutation($fo: ID!) { fulfillmentCreate(fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: $fo }] }) { userErrors { message } } }`, { fo: both[0]!.fulfillmentOrderId });
    expect(shipped.body.errors).toBeUndefined();
    const afterShipping = await read(id);
    expect(Number(afterShipping.totalOutstandingSet.shopMoney.amount)).toBe(1150);
    // Shipped with Dakiya, it carries ₹453.03: the Gurugram parcel collects the rest, and declares its own share.
    const rest = toCourierOrder(afterShipping, { settings, now: NOW, codCarriedElsewherePaise: 45_303 });
    expect(rest.parcels.map((parcel) => [parcel.locationGid, parcel.fields.total_amount, parcel.fields.shipping_charge])).toEqual([[LOCATION_GURUGRAM, 696.97, 30.3]]);
    expect(rest.shipment!.fields.total_amount).toBe(696.97);
    // Shipped by the merchant some other way, it collected nothing: the Gurugram parcel collects all that is owed.
    expect(toCourierOrder(afterShipping, { settings, now: NOW }).parcels.map((parcel) => parcel.fields.total_amount)).toEqual([1150]);
    // Its cash remitted and recorded in Shopify by Dakiya: the outstanding amount drops by it, and it carries nothing more.
    const paid = await admin(`mutation($id: ID!) { orderCreateManualPayment(id: $id, amount: { amount: "453.03", currencyCode: INR }, paymentMethodName: "COD remitted") { userErrors { message } } }`, { id });
    expect(paid.body.errors).toBeUndefined();
    const afterPayment = await read(id);
    expect(Number(afterPayment.totalOutstandingSet.shopMoney.amount)).toBe(696.97);
    expect(toCourierOrder(afterPayment, { settings, now: NOW, codCarriedElsewherePaise: 0 }).parcels.map((parcel) => parcel.fields.total_amount)).toEqual([696.97]);
  });

  it("splits a fulfillment order of 12 products into parcels of 10 and 2, the second split off at booking", async () => {
    const twelve = shop.orders.find((each) => each.name === "#1005")!;
    const { parcels, problems } = toCourierOrder(await read(twelve.id), { settings, now: NOW });
    expect(problems).toEqual([]);
    expect(parcels.map((parcel) => [parcel.fields.products.length, parcel.splitOff, parcel.fulfillmentOrderId === parcels[0]!.fulfillmentOrderId])).toEqual([
      [10, false, true],
      [2, true, true],
    ]);
    expect(parcels[1]!.lines).toHaveLength(2);
    expect(Math.round((parcels[0]!.fields.total_amount + parcels[1]!.fields.total_amount) * 100)).toBe(12 * 149 * 100);
  });

  it("names an order larger than one read takes in, instead of booking part of it unknowingly", async () => {
    const order = await read(place({ lineItems: Array.from({ length: ORDER_READ_LIMITS.lineItems + 1 }, (_, index) => line(`Sampler ${index}`, `SPI-${index}`, "10.00")) }));
    expect(toCourierOrder(order, { settings, now: NOW }).problems.map((problem) => problem.code)).toEqual(["TOO_MANY_ITEMS"]);
  });

  it("applies the e-waybill threshold and the warehouse to each parcel, and names the parcel that has the problem", async () => {
    const order = await read(place({ tags: ["prepaid"], financialStatus: "PAID", lineItems: [line("Brass diya set", "DIY-210", "899.00"), line("Pashmina stole", "PSH-220", "52000.00")] }));
    const { problems } = toCourierOrder(order, { settings, now: NOW });
    expect(problems.map((problem) => problem.code)).toEqual(["EWAYBILL_REQUIRED"]);
    expect(problems[0]!.message).toMatch(/^Parcel 2 of 2 \(from Gurugram Warehouse\): /);
    expect(problemInWords(problems[0]!, "hi").message).toMatch(/^पार्सल 2\/2 \(Gurugram Warehouse से\): /);
    expect(toCourierOrder(order, { settings, now: NOW, overrides: { parcels: { 2: { ewaybillNo: "123456789012" } } } }).problems).toEqual([]);
    const onlyBhiwandi = { ...settings, locationWarehouses: { [LOCATION_BHIWANDI]: 1 } };
    const unmapped = toCourierOrder(order, { settings: onlyBhiwandi, now: NOW, overrides: { parcels: { 2: { ewaybillNo: "123456789012" } } } });
    expect(unmapped.problems.map((problem) => [problem.code, problem.params?.parcel?.number])).toEqual([["NO_WAREHOUSE", 2]]);
    expect(unmapped.parcels[0]!.problems).toEqual([]);
  });
});
