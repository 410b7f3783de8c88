import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { orderProblem, PROBLEM_LABELS, READINESS_CATALOGUE, returnProblem } from "./readiness-checks";

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
    expect(orderProblem("PINCODE_INVALID", "5600")).toEqual({ code: "PINCODE_INVALID", message: 'The PIN code "5600" is not 6 digits.', fix: "Correct the PIN code in the shipping address (6 digits, e.g. 560066)." });
    expect(returnProblem("PINCODE_INVALID", "5600").fix).toBe("Correct the PIN code in the order's shipping address (6 digits, e.g. 560066).");
    expect(orderProblem("OUTSIDE_INDIA", "United Arab Emirates").message).toBe("The order ships to United Arab Emirates; the courier delivers within India only.");
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
