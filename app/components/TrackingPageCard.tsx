import { BlockStack, Card, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { LOGO_URL_MAX, CONTACT_EMAIL_MAX, type SellerContact, type SellerContactErrors } from "~/tracking/seller-contact";

/** Settings' card for what shoppers see on the tracking page beside the shop's name: a logo and the seller's contact. */
export function TrackingPageCard({ contact, errors }: { contact: SellerContact; errors: SellerContactErrors }) {
  const [logoUrl, setLogoUrl] = useState(contact.logoUrl ?? "");
  const [email, setEmail] = useState(contact.contactEmail ?? "");
  const [phone, setPhone] = useState(contact.contactPhone ?? "");
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Tracking page
        </Text>
        <Text as="p" tone="subdued">
          Shoppers who open the tracking link see your shop&apos;s name with a link to your store, and how to reach you.
        </Text>
        <TextField
          name="logoUrl"
          label="Logo address"
          type="url"
          value={logoUrl}
          onChange={setLogoUrl}
          error={errors.logoUrl}
          maxLength={LOGO_URL_MAX}
          autoComplete="off"
          helpText="An https:// address of a square image, such as your logo on Shopify's CDN. Leave empty for your shop's name alone."
        />
        <TextField name="contactEmail" label="Contact e-mail" type="email" value={email} onChange={setEmail} error={errors.contactEmail} maxLength={CONTACT_EMAIL_MAX} autoComplete="email" />
        <TextField name="contactPhone" label="Contact phone" type="tel" value={phone} onChange={setPhone} error={errors.contactPhone} maxLength={20} autoComplete="tel" helpText="A 10-digit number, with or without +91." />
      </BlockStack>
    </Card>
  );
}
