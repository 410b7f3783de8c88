import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createSecretBox } from "./secret-box.server";

const key = () => randomBytes(32).toString("base64");

describe("secret box", () => {
  it("seals so the plaintext is not visible and opens it again", () => {
    const box = createSecretBox(key());
    const sealed = box.seal("courier-secret-123");
    expect(sealed).not.toContain("courier-secret-123");
    expect(box.seal("courier-secret-123")).not.toBe(sealed);
    expect(box.open(sealed)).toBe("courier-secret-123");
  });

  it("opens values sealed with a previous key after rotation, and says they need resealing", () => {
    const oldKey = key();
    const sealed = createSecretBox(oldKey).seal("s3cret");
    const rotated = createSecretBox(key(), [oldKey]);
    expect(rotated.open(sealed)).toBe("s3cret");
    expect(rotated.needsResealing(sealed)).toBe(true);
    expect(rotated.needsResealing(rotated.seal("s3cret"))).toBe(false);
  });

  it("refuses a tampered value and an unknown key", () => {
    const box = createSecretBox(key());
    const sealed = box.seal("s3cret");
    const tampered = sealed.slice(0, -2) + (sealed.endsWith("A") ? "BB" : "AA");
    expect(() => box.open(tampered)).toThrow();
    expect(() => createSecretBox(key()).open(sealed)).toThrow(/no longer configured/);
  });
});
