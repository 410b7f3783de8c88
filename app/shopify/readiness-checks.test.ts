import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { orderProblem, PROBLEM_LABELS, problemInWords, READINESS_CATALOGUE, returnProblem, type MappingProblem } from "./readiness-checks";

const APP = path.resolve(__dirname, "..");

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !/\.d\.ts$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe("the readiness checks' catalogue", () => {
  it("labels every problem, and each one is checked for orders, returns or both", () => {
    for (const [code, entry] of Object.entries(READINESS_CATALOGUE)) {
      expect(entry.label, code).toBe(PROBLEM_LABELS[code as keyof typeof PROBLEM_LABELS]);
      expect(entry.forOrders || entry.forReturns, `${code} is checked nowhere`).toBe(true);
    }
  });

  it("words an order's and a return's problem apart, each with its fix", () => {
    expect(orderProblem("PINCODE_INVALID", "5600")).toEqual({
      code: "PINCODE_INVALID",
      message: 'The PIN code "5600" is not 6 digits.',
      fix: "Correct the PIN code in the shipping address (6 digits, e.g. 560066).",
      params: { subject: "order", pinCode: "5600" },
    });
    expect(returnProblem("PINCODE_INVALID", "5600").fix).toBe("Correct the PIN code in the order's shipping address (6 digits, e.g. 560066).");
    expect(orderProblem("OUTSIDE_INDIA", "AE").message).toBe("The order ships to United Arab Emirates; the courier delivers within India only.");
    expect(returnProblem("RETURN_NOT_OPEN", "REQUESTED")).toMatchObject({ message: "The return is waiting for your approval.", fix: "Approve the return in Shopify; Dakiya books the pickup once it is open." });
    expect(orderProblem("NO_WAREHOUSE").message).toBe("No pickup warehouse is set for this order's location.");
    expect(orderProblem("NO_WAREHOUSE", 7).message).toBe("Warehouse 7 does not exist in your courier account.");
    expect(orderProblem("EWAYBILL_REQUIRED", 52_500).message).toBe("The order is worth ₹52,500; shipments of ₹50,000 or more need an e-waybill.");
  });

  it("is the only place a problem is worded: no module builds one from a code and its own message", () => {
    const wordedElsewhere = sourceFiles(APP)
      .filter((file) => !file.endsWith(`${path.sep}readiness-checks.ts`))
      .flatMap((file) => {
        const source = readFileSync(file, "utf8");
        const found = [...source.matchAll(/\bproblem\(\s*"[A-Z_]+"\s*,|\{\s*code:\s*"[A-Z_]+"\s*,\s*message:/g)];
        return found.map((match) => `${path.relative(APP, file)}: ${match[0]}`);
      });
    expect(wordedElsewhere).toEqual([]);
  });
});

// Every check and its variants, with the English the catalogue has always given them (the extension API, stored
// rows and the route tests read it).
const EVERY_CHECK: [MappingProblem, string, string][] = [
    [orderProblem("CANCELLED"), "The order is cancelled.", "Cancelled orders are not shipped; nothing to do."],
    [orderProblem("ALREADY_FULFILLED"), "The order is already fulfilled.", "Nothing is left to ship."],
    [orderProblem("NOTHING_TO_SHIP"), "No item of this order is left to ship.", "Check the order's fulfillment status in Shopify; items may be on hold or not need shipping."],
    [orderProblem("TOO_MANY_ITEMS"), "The order has more than 40 different items, or its items are spread over more than 5 fulfillment orders; Dakiya reads orders up to that size.", "Fulfill some of its items in Shopify first (or merge its fulfillment orders there), then book the rest with Dakiya."],
    [orderProblem("ORDER_TOO_OLD", 12), "The order was placed 12 days ago; the courier only takes orders from the last 7 days.", "Ship it another way, or create a fresh order for it in Shopify."],
    [orderProblem("NO_SHIPPING_ADDRESS"), "The order has no shipping address.", "Add the customer's shipping address to the order in Shopify."],
    [orderProblem("OUTSIDE_INDIA", "AE"), "The order ships to United Arab Emirates; the courier delivers within India only.", "Ship international orders with an international carrier."],
    [orderProblem("OUTSIDE_INDIA", null), "The order ships to another country; the courier delivers within India only.", "Ship international orders with an international carrier."],
    [orderProblem("PINCODE_MISSING"), "The shipping address has no PIN code.", "Add the 6-digit PIN code to the shipping address in Shopify."],
    [orderProblem("PINCODE_INVALID", "5600"), "The PIN code \"5600\" is not 6 digits.", "Correct the PIN code in the shipping address (6 digits, e.g. 560066)."],
    [orderProblem("ADDRESS_INCOMPLETE", ["address", "city", "state"]), "The shipping address has no address, city, state.", "Complete the shipping address in Shopify."],
    [orderProblem("PHONE_MISSING"), "The order has no phone number; the courier needs one to deliver.", "Add the customer's mobile number to the shipping address in Shopify."],
    [orderProblem("PHONE_INVALID", "022 2345 6789"), "\"022 2345 6789\" is not a 10-digit Indian mobile number.", "Correct the phone number in the shipping address (10 digits, optionally +91)."],
    [orderProblem("EWAYBILL_REQUIRED", 152_500.5), "The order is worth ₹1,52,500.5; shipments of ₹50,000 or more need an e-waybill.", "Generate an e-waybill on the GST e-waybill portal and enter its number before booking."],
    [orderProblem("PAYMENT_MODE_UNKNOWN", { gateways: "", financialStatus: "unknown", codTag: "cod", prepaidTag: "prepaid" }), "Dakiya cannot tell whether the order is cash on delivery or prepaid (gateway: none, payment: unknown).", "Tag the order \"cod\" or \"prepaid\", or choose the payment mode when shipping."],
    [orderProblem("PAYMENT_MODE_UNKNOWN", { gateways: "Razorpay", financialStatus: "PENDING", codTag: "cod", prepaidTag: "prepaid" }), "Dakiya cannot tell whether the order is cash on delivery or prepaid (gateway: Razorpay, payment: PENDING).", "Tag the order \"cod\" or \"prepaid\", or choose the payment mode when shipping."],
    [orderProblem("NO_WAREHOUSE"), "No pickup warehouse is set for this order's location.", "Choose a pickup warehouse in Dakiya's Settings."],
    [orderProblem("NO_WAREHOUSE", 7), "Warehouse 7 does not exist in your courier account.", "Choose another pickup warehouse in Settings."],
    [orderProblem("NO_COURIER", { city: "Bhiwandi", from: 421302, to: "795001" }), "No courier delivers from Bhiwandi (421302) to 795001.", "Check the PIN code, or ship from another warehouse."],
    [returnProblem("RETURN_NOT_OPEN", "REQUESTED"), "The return is waiting for your approval.", "Approve the return in Shopify; Dakiya books the pickup once it is open."],
    [returnProblem("RETURN_NOT_OPEN", "DECLINED"), "The return was declined.", "Nothing to pick up."],
    [returnProblem("RETURN_NOT_OPEN", "CANCELED"), "The return was cancelled.", "Nothing to pick up."],
    [returnProblem("RETURN_NOT_OPEN", "CLOSED"), "The return is closed.", "Nothing to pick up."],
    [returnProblem("RETURN_NOT_OPEN", "SUSPENDED"), "The return is suspended.", "Nothing to pick up."],
    [returnProblem("NOTHING_TO_RETURN"), "Every item of this return already has a pickup in Shopify.", "Nothing to book; the existing reverse delivery carries the tracking."],
    [returnProblem("TOO_MANY_ITEMS"), "The return has more than 10 items; the courier accepts at most 10 per shipment.", "Split the return in Shopify and book each part."],
    [returnProblem("NO_SHIPPING_ADDRESS"), "The order has no shipping address to pick the return up from.", "Add the shopper's address to the order in Shopify."],
    [returnProblem("OUTSIDE_INDIA", "GB"), "The shopper is in United Kingdom; the courier picks up within India only.", "Ask the shopper to send the parcel back with an international carrier."],
    [returnProblem("PINCODE_MISSING"), "The pickup address has no PIN code.", "Add the 6-digit PIN code to the order's shipping address in Shopify."],
    [returnProblem("PINCODE_INVALID", "5600"), "The PIN code \"5600\" is not 6 digits.", "Correct the PIN code in the order's shipping address (6 digits, e.g. 560066)."],
    [returnProblem("ADDRESS_INCOMPLETE", ["city"]), "The pickup address has no city.", "Complete the order's shipping address in Shopify."],
    [returnProblem("PHONE_MISSING"), "The order has no phone number; the courier calls the shopper before the pickup.", "Add the shopper's mobile number to the order's shipping address in Shopify."],
    [returnProblem("PHONE_INVALID", "12345"), "\"12345\" is not a 10-digit Indian mobile number.", "Correct the phone number in the order's shipping address (10 digits, optionally +91)."],
    [returnProblem("NO_WAREHOUSE"), "No warehouse is set for the location the items return to.", "Choose a pickup warehouse in Dakiya's Settings."],
];

const DEVANAGARI = /\p{Script=Devanagari}/u;

describe("a problem in the admin's language", () => {
  it("words every check in English exactly as the catalogue always has, from the values kept with it", () => {
    for (const [problem, message, fix] of EVERY_CHECK) {
      expect(problem.message).toBe(message);
      expect(problem.fix).toBe(fix);
      expect(problemInWords(problem, "en")).toEqual({ label: PROBLEM_LABELS[problem.code], message, fix });
    }
    expect(PROBLEM_LABELS).toEqual({"CANCELLED":"Cancelled","ALREADY_FULFILLED":"Already fulfilled","NO_SHIPPING_ADDRESS":"No shipping address","OUTSIDE_INDIA":"Outside India","PINCODE_MISSING":"No PIN code","PINCODE_INVALID":"PIN code not 6 digits","ADDRESS_INCOMPLETE":"Address incomplete","PHONE_MISSING":"No phone","PHONE_INVALID":"Phone not valid","ORDER_TOO_OLD":"Older than 7 days","NOTHING_TO_SHIP":"Nothing to ship","TOO_MANY_ITEMS":"Too many items","EWAYBILL_REQUIRED":"E-waybill needed","PAYMENT_MODE_UNKNOWN":"COD or prepaid?","NO_WAREHOUSE":"No pickup warehouse","NO_COURIER":"No courier serves the route","RETURN_NOT_OPEN":"Return not open","NOTHING_TO_RETURN":"Nothing to pick up"});
  });

  it("words every check and label in Hindi, keeping what it quotes of the order", () => {
    for (const [problem] of EVERY_CHECK) {
      const words = problemInWords(problem, "hi");
      for (const text of [words.label, words.message, words.fix]) expect(text, problem.code).toMatch(DEVANAGARI);
      for (const quoted of [problem.params?.pinCode, problem.params?.phone, problem.params?.codTag, problem.params?.city]) if (quoted) expect(`${words.message} ${words.fix}`).toContain(quoted);
    }
    expect(problemInWords(orderProblem("OUTSIDE_INDIA", "AE"), "hi").message).toBe("यह ऑर्डर संयुक्त अरब अमीरात जाना है; कूरियर सिर्फ़ भारत के अंदर डिलीवरी करता है।");
    expect(problemInWords(orderProblem("EWAYBILL_REQUIRED", 152_500), "hi").message).toBe("इस ऑर्डर की कीमत ₹1,52,500 है; ₹50,000 या उससे ज़्यादा के शिपमेंट के लिए ई-वे बिल ज़रूरी है।");
    expect(problemInWords(orderProblem("ORDER_TOO_OLD", 12), "hi").label).toBe("7 दिन से पुराना");
  });

  it("keeps the stored English of a problem stored without its values, and names an unknown code by itself", () => {
    const stored = { code: "PINCODE_INVALID" as const, message: 'The PIN code "5600" is not 6 digits.', fix: "Correct it." };
    expect(problemInWords(stored, "hi")).toEqual({ label: "पिनकोड 6 अंकों का नहीं", message: stored.message, fix: stored.fix });
    expect(problemInWords({ code: "RETIRED_CHECK", message: "Old words.", fix: "Old fix.", params: { subject: "order" } }, "hi")).toEqual({ label: "RETIRED_CHECK", message: "Old words.", fix: "Old fix." });
  });
});
