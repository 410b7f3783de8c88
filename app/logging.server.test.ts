import { describe, expect, it } from "vitest";
import { CourierError } from "./shipping/client.server";
import { describeError, loggablePath } from "./logging.server";

describe("a request's path in the log", () => {
  it("keeps a signed document link's route and drops its token", () => {
    expect(loggablePath("/documents/eyJraW5kIjoicmV0dXJuLWxhYmVsIn0.NUftgaJYwNpqurjoNF8HX68rPbmao56BfPut5OC1xME")).toBe("/documents/…");
    expect(loggablePath("/documents/abc.def.pdf")).toBe("/documents/…");
  });

  it("keeps a COD confirmation link's route and drops its token, on the app's address and through the app proxy", () => {
    expect(loggablePath("/confirm/eyJvIjoxMjN9.c2lnbmF0dXJl")).toBe("/confirm/…");
    expect(loggablePath("/proxy/confirm/eyJvIjoxMjN9.c2lnbmF0dXJl")).toBe("/proxy/confirm/…");
  });

  it("leaves every other path as it is", () => {
    expect(loggablePath("/app/orders/5000001/ship")).toBe("/app/orders/5000001/ship");
    expect(loggablePath("/documents")).toBe("/documents");
  });
});

describe("a failure in the log", () => {
  it("says a courier failure's kind and where it was thrown, never its message", () => {
    const described = describeError(new CourierError("unavailable", "create-order: no answer within 8000 ms for Asha Verma, 9876543210"));
    expect(described).toMatch(/^CourierError unavailable at /);
    expect(described).not.toContain("Asha");
    expect(described).not.toContain("9876543210");
  });

  it("says an error's code only when it is a code, and nothing of a word that is not a kind", () => {
    const refused = Object.assign(new Error("duplicate key value (phone)=(9876543210)"), { code: "P2002", kind: "Asha Verma" });
    const described = describeError(refused);
    expect(described).toMatch(/^Error P2002 at /);
    expect(described).not.toContain("Asha");
    expect(describeError("a string")).toBe("string");
  });
});
