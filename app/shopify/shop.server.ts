import type { AdminApiContext } from "@shopify/shopify-app-remix/server";

const SHOP_QUERY = `#graphql
  query ShopOverview {
    shop {
      name
      myshopifyDomain
      ianaTimezone
      currencyCode
    }
  }
`;

export interface ShopOverview {
  name: string;
  myshopifyDomain: string;
  ianaTimezone: string;
  currencyCode: string;
}

export async function getShopOverview(admin: AdminApiContext): Promise<ShopOverview> {
  const response = await admin.graphql(SHOP_QUERY);
  const { data } = (await response.json()) as { data: { shop: ShopOverview } };
  return data.shop;
}
