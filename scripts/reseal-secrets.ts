import { resealSmtpPasswords } from "../app/failed-deliveries/ndr-email.server";
import { resealCourierSecrets } from "../app/settings/shop-settings.server";

// After rotating ENCRYPTION_KEY (old key moved to ENCRYPTION_KEYS_PREVIOUS): reseal every stored secret with the new
// key — the shops' courier secret keys and the SMTP passwords of their NDR e-mails; then the old key can be dropped
// from the configuration.
const courierSecrets = await resealCourierSecrets();
const smtpPasswords = await resealSmtpPasswords();
console.info(`Resealed ${courierSecrets} courier secret(s) and ${smtpPasswords} SMTP password(s) with the current ENCRYPTION_KEY.`);
