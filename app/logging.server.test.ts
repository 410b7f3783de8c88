import { describe, expect, it } from "vitest";
import { loggablePath } from "./logging.server";

describe("a request's path in the log", () => {
  it("keeps a signed document link's route and drops its token", () => {
    expect(loggablePath("/documents/eyJraW5kIjoicmV0dXJuLWxhYmVsIn0.NUftgaJYwNpqurjoNF8HX68rPbmao56BfPut5OC1xME")).toBe("/documents/…");
    expect(loggablePath("/documents/abc.def.pdf")).toBe("/documents/…");
  });

  it("leaves every other path as it is", () => {
    expect(loggablePath("/app/orders/5000001/ship")).toBe("/app/orders/5000001/ship");
    expect(loggablePath("/documents")).toBe("/documents");
  });
});
