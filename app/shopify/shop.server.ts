import type { ShopAdmin } from "./admin-graphql.server";
import { adminGraphql } from "./admin-graphql.server";
import { adminDocument } from "./admin-document";
import type { ShopOverviewQuery, ShopOverviewQueryVariables } from "~/types/admin.generated";

const SHOP_QUERY = adminDocument<ShopOverviewQuery, ShopOverviewQueryVariables>(
  `#graphql
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
`
);

export interface ShopOverview {
  name: string;
  myshopifyDomain: string;
  ianaTimezone: string;
  currencyCode: string;
  /** The shop's own domain when it has one, else its myshopify domain. */
  primaryDomain: { host: string };
}

export async function getShopOverview(admin: ShopAdmin): Promise<ShopOverview> {
  return (await adminGraphql(admin, SHOP_QUERY)).shop;
}
