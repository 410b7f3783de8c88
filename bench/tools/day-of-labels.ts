import { labelFacts, type LabelFacts } from "../../app/documents/label-facts";

/**
 * A day's shipping labels as the bench renders them (bench/tools/render-labels.ts): COD and prepaid, Latin addresses
 * and addresses in Devanagari, Tamil, Bengali and Gujarati, a very long name and address, up to six items. Each is
 * built as the app builds a label: from the create-order body the booking stored, so the addresses carry the spec's
 * `address_line_1` and `address_line_2`, the fields a label prints its street lines from.
 */
export const DAY_ADDRESSES = [
  { name: "Aditi Rao", address_line_1: "12, 3rd Cross, Indiranagar", address_line_2: "Near the metro station", city: "Bengaluru", state: "Karnataka", pincode: 560038 },
  { name: "राजेश कुमार", address_line_1: "क्षत्रिय भवन, श्री गणेश मार्ग", address_line_2: "गांधी नगर", city: "नई दिल्ली", state: "Delhi", pincode: 110001 },
  { name: "லக்ஷ்மி ஐயர்", address_line_1: "12, அண்ணா சாலை", address_line_2: "அடையாறு", city: "சென்னை", state: "Tamil Nadu", pincode: 600020 },
  { name: "নিশা বসু", address_line_1: "গড়িয়াহাট রোড, বালিগঞ্জ", city: "কলকাতা", state: "West Bengal", pincode: 700019 },
  {
    name: "Sri Venkateswara Handloom and Handicrafts Emporium Private Limited, Purchase Department",
    address_line_1: "Plot 14-B, Second Floor, Above the State Bank ATM, Opposite the Old Bus Stand, Beside the Temple Road",
    address_line_2: "Banjara Hills Road No. 10, Landmark: the blue gate with the mango tree",
    city: "Hyderabad",
    state: "Telangana",
    pincode: 500034,
  },
  { name: "કિરણ પટેલ", address_line_1: "સી.જી. રોડ, નવરંગપુરા", city: "અમદાવાદ", state: "Gujarat", pincode: 380009 },
];
const PRODUCTS = ["Handloom cotton kurta", "Block-print bedsheet, king size, indigo", "Brass table lamp", "Chanderi silk scarf", "Masala chai tin 250 g", "Kanjivaram silk stole"];
const WAREHOUSE = { name: "Chai Point Warehouse", address1: "Unit 4, Andheri East Industrial Estate", address2: "", city: "Mumbai", state: "Maharashtra", pincode: "400069", phone: "9876543210" };

/** The day's label `index`: its address, courier, payment and items vary with the index. */
export function dayLabel(index: number): LabelFacts {
  const to = DAY_ADDRESSES[index % DAY_ADDRESSES.length]!;
  const items = 1 + (index % 6);
  return labelFacts({
    shopName: "Chai Point Store",
    orderName: `#${10_000 + index}`,
    awb: String(15_616_928_599_560 + index * 7_919),
    courierName: ["Delhivery", "Blue Dart", "Xpressbees", "Ecom Express"][index % 4]!,
    routing: `Mumbai (400069) to ${to.city} (${to.pincode}), zone ${"ABCDE"[index % 5]}, ${(0.5 + (index % 4) * 0.5).toFixed(1)} kg chargeable`,
    bookedAt: new Date("2026-11-25T06:00:00Z"),
    returnTo: WAREHOUSE,
    requestPayload: JSON.stringify({
      ...to,
      mobile: `98${String(12_345_678 + index).padStart(8, "0")}`,
      products: Array.from({ length: items }, (_, item) => ({ product_name: PRODUCTS[(index + item) % PRODUCTS.length], quantity: 1 + (item % 3), sku: `SKU-${index}-${item}` })),
      package_length: 20,
      package_breadth: 15,
      package_height: 10,
      package_weight: 0.5 + (index % 4) * 0.5,
      payment_mode: index % 2 === 0 ? "cod" : "prepaid",
      total_amount: 499 + index,
      ewaybill_no: index % 10 === 0 ? `3410${String(index).padStart(8, "0")}` : undefined,
    }),
  });
}
