import { describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { createSecretBox } from "~/security/secret-box.server";
import { courierCredentialsOf, getShopSettings, resealCourierSecrets, secretBox } from "~/settings/shop-settings.server";
import { uniqueShop } from "../support/webhooks";

describe("rotating the encryption key", () => {
  it("opens secrets sealed with the previous key, and reseals them with the current one", async () => {
    const shop = uniqueShop();
    const sealedWithOldKey = createSecretBox(process.env.ENCRYPTION_KEYS_PREVIOUS!).seal("courier-secret-from-2025");
    await prisma.shopSettings.create({ data: { shop, courierApiKey: "merchant-api-key", courierSecretCipher: sealedWithOldKey } });

    expect(courierCredentialsOf(await getShopSettings(shop)).secretKey).toBe("courier-secret-from-2025");
    expect(await resealCourierSecrets()).toBeGreaterThanOrEqual(1);

    const resealed = (await getShopSettings(shop)).courierSecretCipher!;
    expect(resealed).not.toBe(sealedWithOldKey);
    expect(secretBox().needsResealing(resealed)).toBe(false);
    expect(createSecretBox(process.env.ENCRYPTION_KEY!).open(resealed)).toBe("courier-secret-from-2025");
    expect(await resealCourierSecrets()).toBe(0);
  });
});
