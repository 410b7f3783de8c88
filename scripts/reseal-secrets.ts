import { resealSmtpPasswords } from "../app/failed-deliveries/ndr-email.server";
import { resealSessionTokens } from "../app/security/sealed-sessions.server";
import { resealCourierSecrets, secretBox } from "../app/settings/shop-settings.server";

// After rotating ENCRYPTION_KEY (old key moved to ENCRYPTION_KEYS_PREVIOUS): reseal every stored secret with the new
// key — the shops' courier secret keys, the SMTP passwords of their NDR e-mails and Shopify's tokens (sealing any
// stored before tokens were sealed); then the old key can be dropped from the configuration.
const courierSecrets = await resealCourierSecrets();
const smtpPasswords = await resealSmtpPasswords();
const sessionTokens = await resealSessionTokens(secretBox());
console.info(`Resealed ${courierSecrets} courier secret(s), ${smtpPasswords} SMTP password(s) and ${sessionTokens} Shopify session(s) with the current ENCRYPTION_KEY.`);
