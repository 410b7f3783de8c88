import { fill } from "~/locales/fill";

/**
 * WhatsApp's click-to-chat link to the shopper, with a message prefilled in the shopper's language (the language
 * they answered in; English until they do): the merchant's own WhatsApp opens on it, and Dakiya sends nothing.
 * Null without an Indian mobile to write to. Pure.
 */
export function whatsappChatUrl({ phone, language, shopName, orderName, reason, templates }: { phone: string | null; language: "en" | "hi"; shopName: string; orderName: string; reason: string; templates: { en: string; hi: string } }): string | null {
  return whatsappUrl(phone, fill(templates[language], { shop: shopName, order: orderName, reason: reason.slice(0, 120) }));
}

/** WhatsApp's click-to-chat address for an Indian mobile (with or without +91 or a leading 0) and a text; null for any other number. */
export function whatsappUrl(phone: string | null, text: string): string | null {
  const digits = (phone ?? "").replace(/\D/g, "");
  const mobile = digits.length === 12 && digits.startsWith("91") ? digits.slice(2) : digits.length === 11 && digits.startsWith("0") ? digits.slice(1) : digits;
  if (!/^[6-9]\d{9}$/.test(mobile)) return null;
  return `https://wa.me/91${mobile}?text=${encodeURIComponent(text)}`;
}
