import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/**
 * AES-256-GCM for secrets at rest (couriers' secret keys). A sealed value names the key that sealed
 * it, so a rotated-out key (ENCRYPTION_KEYS_PREVIOUS) still opens old values until they are resealed.
 * Format: v1.<key id>.<iv>.<auth tag>.<ciphertext>, each part base64url.
 */
export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
  /** True when the value was sealed with a key other than the current one. */
  needsResealing(sealed: string): boolean;
}

const keyId = (key: Buffer) => createHash("sha256").update(key).digest("base64url").slice(0, 8);

export function createSecretBox(currentKey: string, previousKeys: readonly string[] = []): SecretBox {
  const current = Buffer.from(currentKey, "base64");
  if (current.length !== 32) throw new Error("The encryption key must be 32 bytes");
  const keys = new Map<string, Buffer>([current, ...previousKeys.map((key) => Buffer.from(key, "base64"))].map((key) => [keyId(key), key]));
  const currentId = keyId(current);

  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", current, iv);
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return ["v1", currentId, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ciphertext.toString("base64url")].join(".");
    },
    open(sealed) {
      const [version, id, iv, tag, ciphertext] = sealed.split(".");
      if (version !== "v1" || !id || !iv || !tag || ciphertext === undefined) throw new Error("Not a sealed secret");
      const key = keys.get(id);
      if (!key) throw new Error("The secret was sealed with a key that is no longer configured (ENCRYPTION_KEYS_PREVIOUS)");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
    },
    needsResealing(sealed) {
      return sealed.split(".")[1] !== currentId;
    },
  };
}
