import { MYSHOPIFY_DOMAIN } from "../webhook-topics";

/**
 * Which host names are shops: `*.myshopify.com`, and the shops under one custom domain when SHOP_CUSTOM_DOMAIN names
 * one (a split-domain or local setup). One definition for the Shopify library (as `domainTransformations`, its
 * replacement for the removed `customShopDomains`), for session tokens and for webhooks. Pure.
 */

const escapeForRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The library's form: a shop under the custom domain is accepted as it is (no other host is mapped onto it). */
export function domainTransformationsFor(customDomain: string | undefined): { match: RegExp; transform: string }[] {
  if (!customDomain) return [];
  return [{ match: new RegExp(`^([a-zA-Z0-9][a-zA-Z0-9-_]*)\\.${escapeForRegExp(customDomain)}$`), transform: `$1.${customDomain}` }];
}

/** Whether `host` (lower-cased) is a shop's domain. */
export function isShopDomain(host: string, customDomain: string | undefined): boolean {
  if (MYSHOPIFY_DOMAIN.test(host)) return true;
  if (!customDomain || host.length > 255) return false;
  return domainTransformationsFor(customDomain).some(({ match }) => match.test(host));
}
