import { describe, expect, it } from "vitest";
import { zoneInWords } from "./zone-words";

describe("zones in words", () => {
  it("says what each of the courier's zones means, and names an unknown one as a zone", () => {
    expect(zoneInWords("A")).toBe("Within the city");
    expect(zoneInWords("d")).toBe("Rest of India");
    expect(zoneInWords("Z")).toBe("Zone Z");
  });
});
