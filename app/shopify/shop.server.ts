import type { ShopAdmin } from "./admin-graphql.server";
import { adminGraphql } from "./admin-graphql.server";

const SHOP_QUERY = `#graphql
  query ShopOverview {
    shop {
      name
      myshopifyDomain
      ianaTimezone
      currencyCode
      primaryDomain {
        host
      }
    }
  }
`;

export interface ShopOverview {
  name: string;
  myshopifyDomain: string;
  ianaTimezone: string;
  currencyCode: string;
  /** The shop's own domain when it has one, else its myshopify domain. */
  primaryDomain: { host: string };
}

export async function getShopOverview(admin: ShopAdmin): Promise<ShopOverview> {
  return (await adminGraphql<{ shop: ShopOverview }>(admin, SHOP_QUERY)).shop;
}
