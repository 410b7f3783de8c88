import { resealCourierSecrets } from "../app/settings/shop-settings.server";

// After rotating ENCRYPTION_KEY (old key moved to ENCRYPTION_KEYS_PREVIOUS): reseal every stored
// courier secret with the new key; then the old key can be dropped from the configuration.
const count = await resealCourierSecrets();
console.info(`Resealed ${count} courier secret(s) with the current ENCRYPTION_KEY.`);
