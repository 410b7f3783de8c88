import { describe, expect, it } from "vitest";
import { loader } from "~/routes/ping";

describe("GET /ping", () => {
  it("answers 200 ok without asking the database", async () => {
    const response = loader();
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(await response.text()).toBe("ok");
  });
});
