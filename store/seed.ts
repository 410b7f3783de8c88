import { gid, nextId, type MailingAddress, type StoreLineItem, type StoreOrder, type StoreShop } from "./model";

export const SEED_SHOP = "dakiya-demo.myshopify.com";
export const LOCATION_BHIWANDI = gid("Location", 71001);
export const LOCATION_GURUGRAM = gid("Location", 71002);

/**
 * What only one warehouse stocks (every other SKU is stocked at both): an order with one of each ships as two
 * parcels, one from each warehouse (Shopify's order routing, store/fulfillment-orders.ts).
 */
export const SEED_STOCK: Record<string, string[]> = {
  "DIY-210": [LOCATION_BHIWANDI],
  "PSH-220": [LOCATION_GURUGRAM],
};

interface AddressSeed {
  name: string;
  phone?: string | null;
  address1: string;
  address2?: string;
  city: string;
  province: string;
  provinceCode: string;
  zip: string | null;
  country?: string;
  countryCodeV2?: string;
  company?: string;
}

function address(seed: AddressSeed): MailingAddress {
  const [firstName = "", ...rest] = seed.name.split(" ");
  return {
    name: seed.name,
    firstName,
    lastName: rest.join(" ") || null,
    company: seed.company ?? null,
    phone: seed.phone ?? null,
    address1: seed.address1,
    address2: seed.address2 ?? null,
    city: seed.city,
    province: seed.province,
    provinceCode: seed.provinceCode,
    zip: seed.zip,
    country: seed.country ?? "India",
    countryCodeV2: seed.countryCodeV2 ?? "IN",
    latitude: null,
    longitude: null,
  };
}

type ItemSeed = [title: string, sku: string, price: number, quantity: number, weight: StoreLineItem["weight"], requiresShipping?: boolean];

function items(seeds: ItemSeed[]): StoreLineItem[] {
  return seeds.map(([title, sku, price, quantity, weight, requiresShipping = true]) => ({
    id: gid("LineItem", nextId()),
    title,
    variantTitle: null,
    sku,
    quantity,
    requiresShipping,
    isGiftCard: false,
    unitPrice: price,
    discountedUnitPrice: price,
    taxRate: 0.05,
    weight,
  }));
}

const g = (value: number) => ({ unit: "GRAMS" as const, value });
const kg = (value: number) => ({ unit: "KILOGRAMS" as const, value });

interface OrderSeed {
  number: number;
  hoursAgo: number;
  address: AddressSeed | null;
  email?: string | null;
  customerPhone?: string | null;
  billingPhone?: string | null;
  gateways: string[];
  financial: string;
  tags?: string[];
  items: ItemSeed[];
  shipping?: number;
  discount?: number;
  location?: string;
  cancelled?: boolean;
  fulfilledLines?: number;
}

const ORDER_SEEDS: OrderSeed[] = [
  {
    number: 1001, hoursAgo: 5, email: "priya.sharma@example.in", gateways: ["Razorpay (UPI, Cards, Wallets, NetBanking)"], financial: "PAID",
    address: { name: "Priya Sharma", phone: "+91 98450 12345", address1: "Flat 302, Prestige Lakeside Habitat", address2: "Varthur Main Road, Whitefield", city: "Bengaluru", province: "Karnataka", provinceCode: "KA", zip: "560066" },
    items: [["Handloom cotton kurta", "KUR-001", 1299, 1, g(350)], ["Block-print dupatta", "DUP-014", 499, 2, g(180)]], shipping: 0,
  },
  {
    number: 1002, hoursAgo: 20, email: "rahul.verma@example.in", gateways: ["Cash on Delivery (COD)"], financial: "PENDING", tags: ["cod"],
    address: { name: "Rahul Verma", phone: "098390 12345", address1: "B-14, Sector C, Aliganj", address2: "Near Kapoorthala Chauraha", city: "Lucknow", province: "Uttar Pradesh", provinceCode: "UP", zip: "226024" },
    items: [["Brass diya set", "DIY-210", 899, 1, kg(1.2)]], shipping: 79,
  },
  {
    number: 1003, hoursAgo: 30, email: "ananya.iyer@example.in", gateways: ["shopify_payments"], financial: "PAID", tags: ["prepaid"],
    address: { name: "Ananya Iyer", phone: "+919444012345", address1: "12, 4th Street, Abhiramapuram", city: "Chennai", province: "Tamil Nadu", provinceCode: "TN", zip: "600018" },
    items: [["Kanjivaram silk stole", "STO-077", 2499, 1, g(250)], ["Filter coffee tumbler", "TUM-002", 399, 2, g(220)]],
  },
  {
    number: 1004, hoursAgo: 44, email: null, gateways: ["manual"], financial: "PENDING", tags: ["cod"],
    address: { name: "Mohammed Rafi Ahmed", phone: "+91 94350 12345", address1: "House 21, Zoo Road Tiniali", address2: "R G Baruah Road", city: "Guwahati", province: "Assam", provinceCode: "AS", zip: "781024" },
    items: [["Assam tea gift box", "TEA-500", 749, 2, g(500)]], shipping: 99,
  },
  {
    number: 1005, hoursAgo: 50, email: "meera.nair@example.in", gateways: ["Razorpay (UPI, Cards, Wallets, NetBanking)"], financial: "PAID",
    address: { name: "Meera Nair", phone: "9895012345", address1: "TC 25/1120, Thampanoor", city: "Thiruvananthapuram", province: "Kerala", provinceCode: "KL", zip: "695001" },
    items: Array.from({ length: 12 }, (_, index): ItemSeed => [`Spice sampler no. ${index + 1}`, `SPI-${100 + index}`, 149, 1, g(100)]),
  },
  {
    number: 1006, hoursAgo: 8, email: "vikram.malhotra@example.in", gateways: ["shopify_payments"], financial: "PAID",
    address: { name: "Vikram Malhotra", phone: "+91 98100 54321", address1: "E-42, Greater Kailash II", city: "New Delhi", province: "Delhi", provinceCode: "DL", zip: "110048" },
    items: [["Banarasi silk saree, pure zari", "SAR-900", 62000, 1, g(900)]],
  },
  {
    number: 1007, hoursAgo: 12, email: "sneha.patil@example.in", gateways: ["Cash on Delivery (COD)"], financial: "PENDING",
    address: { name: "Sneha Patil", phone: "+91 90040 12345", address1: "204, Shanti Niketan, Dadar West", city: "Mumbai", province: "Maharashtra", provinceCode: "MH", zip: "40002" },
    items: [["Kolhapuri chappals", "KOL-038", 1199, 1, g(600)]],
  },
  {
    number: 1008, hoursAgo: 15, email: "arjun.reddy@example.in", gateways: ["Razorpay (UPI, Cards, Wallets, NetBanking)"], financial: "PAID",
    address: { name: "Arjun Reddy", phone: "+91 99890 12345", address1: "Plot 9, Road No. 12, Banjara Hills", city: "Hyderabad", province: "Telangana", provinceCode: "TS", zip: null },
    items: [["Pochampally ikat cushion covers", "CUS-020", 899, 1, g(400)]],
  },
  {
    number: 1009, hoursAgo: 18, email: "kavya.joshi@example.in", gateways: ["shopify_payments"], financial: "PAID",
    address: { name: "Kavya Joshi", phone: null, address1: "17, Shivaji Nagar", city: "Pune", province: "Maharashtra", provinceCode: "MH", zip: "411005" },
    items: [["Paithani clutch", "CLU-005", 1599, 1, g(300)]],
  },
  {
    number: 1010, hoursAgo: 22, email: "farah.khan@example.ae", gateways: ["shopify_payments"], financial: "PAID",
    address: { name: "Farah Khan", phone: "+971 50 123 4567", address1: "Apartment 1203, Marina Heights", city: "Dubai", province: "Dubai", provinceCode: "DU", zip: "00000", country: "United Arab Emirates", countryCodeV2: "AE" },
    items: [["Pashmina shawl", "PSH-011", 5499, 1, g(300)]],
  },
  {
    number: 1011, hoursAgo: 60, email: "suresh.gupta@example.in", gateways: ["Cash on Delivery (COD)"], financial: "PENDING", tags: ["cod"],
    address: { name: "Suresh Gupta", phone: "+91 94140 12345", address1: "56, Civil Lines", city: "Jaipur", province: "Rajasthan", provinceCode: "RJ", zip: "302006" },
    items: [["Blue pottery vase", "VAS-031", 1499, 1, kg(1.5)], ["Jaipuri razai", "RAZ-007", 2299, 1, kg(1.1)]], fulfilledLines: 1,
  },
  {
    number: 1012, hoursAgo: 24 * 10, email: "deepa.menon@example.in", gateways: ["shopify_payments"], financial: "PAID",
    address: { name: "Deepa Menon", phone: "+91 98470 12345", address1: "Kaloor, Near Stadium", city: "Kochi", province: "Kerala", provinceCode: "KL", zip: "682017" },
    items: [["Coir doormat", "MAT-004", 599, 1, kg(1)]],
  },
  {
    number: 1013, hoursAgo: 26, email: "amit.das@example.in", gateways: ["Cash on Delivery (COD)"], financial: "VOIDED", cancelled: true,
    address: { name: "Amit Das", phone: "+91 98300 12345", address1: "P-12, Lake Town", city: "Kolkata", province: "West Bengal", provinceCode: "WB", zip: "700089" },
    items: [["Terracotta horse", "TER-019", 999, 1, kg(2)]],
  },
  {
    number: 1014, hoursAgo: 3, email: "neha.kapoor@example.in", gateways: ["Razorpay (UPI, Cards, Wallets, NetBanking)"], financial: "PAID", location: LOCATION_GURUGRAM, discount: 200,
    address: { name: "Neha Kapoor", phone: "+91-98711-23456", company: "Kapoor Interiors LLP", address1: "Tower B, 9th Floor, DLF Cyber City", address2: "Phase 2", city: "Gurugram", province: "Haryana", provinceCode: "HR", zip: "122002" },
    customerPhone: "+91 98111 00000",
    items: [["Jute table runner", "RUN-044", 799, 2, { unit: "POUNDS", value: 0.5 }], ["Copper bottle", "BOT-003", 999, 1, { unit: "OUNCES", value: 12 }], ["Gift card", "GIFT-500", 500, 1, null, false]],
  },
];

function toOrder(seed: OrderSeed, now: number): StoreOrder {
  const id = nextId();
  const lineItems = items(seed.items);
  const fulfilledLines = seed.fulfilledLines ?? 0;
  const shippable = lineItems.filter((item) => item.requiresShipping);
  const fulfillmentOrderId = gid("FulfillmentOrder", nextId());
  const createdAt = new Date(now - seed.hoursAgo * 3_600_000).toISOString();
  const order: StoreOrder = {
    id: gid("Order", id),
    legacyResourceId: String(id),
    name: `#${seed.number}`,
    createdAt,
    updatedAt: createdAt,
    cancelledAt: seed.cancelled ? new Date(now - (seed.hoursAgo - 2) * 3_600_000).toISOString() : null,
    cancelReason: seed.cancelled ? "CUSTOMER" : null,
    closed: Boolean(seed.cancelled),
    tags: seed.tags ?? [],
    note: null,
    email: seed.email ?? null,
    phone: null,
    paymentGatewayNames: seed.gateways,
    displayFinancialStatus: seed.financial,
    customer: seed.address
      ? {
          id: gid("Customer", nextId()),
          firstName: seed.address.name.split(" ")[0]!,
          lastName: seed.address.name.split(" ").slice(1).join(" "),
          phone: seed.customerPhone ?? null,
          email: seed.email ?? null,
        }
      : null,
    shippingAddress: seed.address ? address(seed.address) : null,
    billingAddress: seed.address ? address({ ...seed.address, phone: seed.billingPhone ?? null }) : null,
    shippingLine: { title: seed.shipping ? "Standard Shipping" : "Free Shipping", price: seed.shipping ?? 0 },
    lineItems,
    discount: seed.discount ?? 0,
    shippingPrice: seed.shipping ?? 0,
    fulfillmentOrders: [
      {
        id: fulfillmentOrderId,
        status: seed.cancelled ? "CANCELLED" : fulfilledLines > 0 ? "IN_PROGRESS" : "OPEN",
        locationId: seed.location ?? LOCATION_BHIWANDI,
        lines: shippable.map((item, index) => ({
          id: gid("FulfillmentOrderLineItem", nextId()),
          lineItemId: item.id,
          totalQuantity: item.quantity,
          remainingQuantity: index < fulfilledLines ? 0 : item.quantity,
        })),
      },
    ],
    fulfillments: [],
    metafields: [],
  };
  if (fulfilledLines > 0) {
    order.fulfillments.push({
      id: gid("Fulfillment", nextId()),
      name: `${order.name}-F1`,
      status: "SUCCESS",
      createdAt,
      updatedAt: createdAt,
      trackingInfo: [{ company: "India Post", number: "EM123456789IN", url: "https://www.indiapost.gov.in/" }],
      notifyCustomer: true,
      fulfillmentOrderIds: [fulfillmentOrderId],
      lines: shippable.slice(0, fulfilledLines).map((item) => ({ lineItemId: item.id, quantity: item.quantity })),
      events: [],
    });
  }
  return order;
}

/** A shop with two Indian warehouses and the orders a merchant meets, edge cases included. */
/**
 * The storefront's products' variants (store/storefront.ts), and one the merchant gave no weight. Their ids stay
 * below the simulator's id sequence (model.ts), so an id handed out later never meets one of them.
 */
export const SEED_VARIANTS = [
  { id: gid("ProductVariant", 4_400_101), title: "Handloom cotton kurta", grams: 450 },
  { id: gid("ProductVariant", 4_400_102), title: "Brass diya set of 4", grams: 1_200 },
  { id: gid("ProductVariant", 4_400_103), title: "Gift card", grams: null },
] as const;

export function seedShop(domain = SEED_SHOP, now = Date.now()): StoreShop {
  return {
    domain,
    name: "Dakiya Demo Store",
    email: "owner@dakiya-demo.example.in",
    ianaTimezone: "Asia/Kolkata",
    locations: [
      { id: LOCATION_BHIWANDI, name: "Bhiwandi Warehouse", address: { address1: "Mankoli Naka, Dapode Road", city: "Bhiwandi", province: "Maharashtra", zip: "421302", countryCode: "IN" } },
      { id: LOCATION_GURUGRAM, name: "Gurugram Warehouse", address: { address1: "Plot 52, Sector 37", city: "Gurugram", province: "Haryana", zip: "122001", countryCode: "IN" } },
    ],
    stock: structuredClone(SEED_STOCK),
    orders: ORDER_SEEDS.map((seed) => toOrder(seed, now)),
    variants: SEED_VARIANTS.map((variant) => ({ ...variant })),
    accessTokens: new Map(),
    refreshTokens: new Map(),
    bucket: { available: Number.NaN, updatedAt: 0 },
    usage: { points: 0, answers: 0, throttled: 0 },
    faults: new Map(),
  };
}

/**
 * `count` more orders, each ready to ship (prepaid, Bengaluru, one light item), numbered from #2001 and placed 3 days
 * ago and earlier. The seed alone fits on one page of the app's order list; the browser tests add these to walk its
 * paging (`DEMO_EXTRA_ORDERS`, store/demo.ts).
 */
export function readyOrders(count: number, now = Date.now()): StoreOrder[] {
  return Array.from({ length: count }, (_, index) =>
    toOrder(
      {
        number: 2001 + index, hoursAgo: 72 + index, email: `buyer${index + 1}@example.in`, gateways: ["shopify_payments"], financial: "PAID",
        address: { name: "Lakshmi Rao", phone: "+91 98450 67890", address1: "No. 8, 2nd Main, Jayanagar 4th Block", city: "Bengaluru", province: "Karnataka", provinceCode: "KA", zip: "560011" },
        items: [["Cotton tote bag", `TOT-${100 + index}`, 499, 1, g(200)]],
      },
      now,
    ),
  );
}

export { address as mailingAddress, items as lineItemsFrom };
