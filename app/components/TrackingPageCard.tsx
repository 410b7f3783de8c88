import { BlockStack, Card, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { useAdminStrings } from "./AdminLanguage";
import { LOGO_URL_MAX, CONTACT_EMAIL_MAX, type SellerContact, type SellerContactErrors } from "~/tracking/seller-contact";

/** Settings' card for what shoppers see on the tracking page beside the shop's name: a logo and the seller's contact. */
export function TrackingPageCard({ contact, errors }: { contact: SellerContact; errors: SellerContactErrors }) {
  const [logoUrl, setLogoUrl] = useState(contact.logoUrl ?? "");
  const [email, setEmail] = useState(contact.contactEmail ?? "");
  const [phone, setPhone] = useState(contact.contactPhone ?? "");
  const t = useAdminStrings().trackingPageSettings;
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {t.heading}
        </Text>
        <Text as="p" tone="subdued">
          {t.intro}
        </Text>
        <TextField
          name="logoUrl"
          label={t.logoUrl}
          type="url"
          value={logoUrl}
          onChange={setLogoUrl}
          error={errors.logoUrl}
          maxLength={LOGO_URL_MAX}
          autoComplete="off"
          helpText={t.logoUrlHelp}
        />
        <TextField name="contactEmail" label={t.contactEmail} type="email" value={email} onChange={setEmail} error={errors.contactEmail} maxLength={CONTACT_EMAIL_MAX} autoComplete="email" />
        <TextField name="contactPhone" label={t.contactPhone} type="tel" value={phone} onChange={setPhone} error={errors.contactPhone} maxLength={20} autoComplete="tel" helpText={t.contactPhoneHelp} />
      </BlockStack>
    </Card>
  );
}
