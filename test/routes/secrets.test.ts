import { describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { createSecretBox } from "~/security/secret-box.server";
import { courierCredentialsOf, getShopSettings, resealCourierSecrets, secretBox } from "~/settings/shop-settings.server";
import { resealSmtpPasswords } from "~/failed-deliveries/ndr-email.server";
import { uniqueShop } from "../support/webhooks";
import { resealSessionTokens } from "~/security/sealed-sessions.server";
import { sessionStorage } from "~/shopify.server";

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

  it("keeps Shopify's tokens sealed: one stored before tokens were sealed still loads, and resealing seals it and, after a rotation, moves it to the current key", async () => {
    const shop = uniqueShop();
    const id = `offline_${shop}`;
    await prisma.session.create({ data: { id, shop, state: "installed", accessToken: "shpat_stored_in_clear", refreshToken: "shprt_stored_in_clear", scope: "read_orders" } });
    expect(await sessionStorage.loadSession(id)).toMatchObject({ accessToken: "shpat_stored_in_clear", refreshToken: "shprt_stored_in_clear" });

    expect(await resealSessionTokens(secretBox())).toBeGreaterThanOrEqual(1);
    const sealed = await prisma.session.findUniqueOrThrow({ where: { id } });
    expect([sealed.accessToken, sealed.refreshToken]).toEqual([expect.stringMatching(/^v1\./), expect.stringMatching(/^v1\./)]);
    expect(await sessionStorage.loadSession(id)).toMatchObject({ accessToken: "shpat_stored_in_clear", refreshToken: "shprt_stored_in_clear" });

    // Sealed with the previous key: loads, and is resealed with the current one.
    const old = createSecretBox(process.env.ENCRYPTION_KEYS_PREVIOUS!);
    await prisma.session.update({ where: { id }, data: { accessToken: old.seal("shpat_rotated"), refreshToken: old.seal("shprt_rotated") } });
    expect(await sessionStorage.loadSession(id)).toMatchObject({ accessToken: "shpat_rotated" });
    expect(await resealSessionTokens(secretBox())).toBeGreaterThanOrEqual(1);
    expect(secretBox().needsResealing((await prisma.session.findUniqueOrThrow({ where: { id } })).accessToken)).toBe(false);
    expect(await resealSessionTokens(secretBox())).toBe(0);
    await prisma.session.delete({ where: { id } });
  });

  it("reseals the NDR e-mail's SMTP password too, so the old key can be dropped and the day's mail still goes", async () => {
    const shop = uniqueShop();
    const sealedWithOldKey = createSecretBox(process.env.ENCRYPTION_KEYS_PREVIOUS!).seal("smtp-pass-from-2025");
    await prisma.ndrEmailSettings.create({ data: { shop, recipient: "ndr@courier.example", sendHour: 18, timeZone: "Asia/Kolkata", smtpHost: "smtp.example.com", smtpPort: 587, smtpSecurity: "starttls", smtpUser: "desk", smtpPasswordCipher: sealedWithOldKey, fromAddress: "orders@shop.example", checkedAt: new Date() } });

    expect(await resealSmtpPasswords()).toBeGreaterThanOrEqual(1);
    const { smtpPasswordCipher } = await prisma.ndrEmailSettings.findUniqueOrThrow({ where: { shop } });
    expect(smtpPasswordCipher).not.toBe(sealedWithOldKey);
    expect(createSecretBox(process.env.ENCRYPTION_KEY!).open(smtpPasswordCipher)).toBe("smtp-pass-from-2025");
    expect(await resealSmtpPasswords()).toBe(0);
  });
});
