import { adminGraphql, type ShopAdmin } from "~/shopify/admin-graphql.server";
import { adminDocument } from "~/shopify/admin-document";
import type { StorefrontVariantWeightQuery, StorefrontVariantWeightQueryVariables } from "~/types/admin.generated";

/**
 * A product variant's shipping weight as the merchant entered it in Shopify (the variant's inventory item), for
 * storefronts that name the variant rather than its weight (a headless storefront, say). Needs `read_products`.
 */
const VARIANT_WEIGHT_QUERY = adminDocument<StorefrontVariantWeightQuery, StorefrontVariantWeightQueryVariables>(
  `#graphql
  query StorefrontVariantWeight($id: ID!) {
    productVariant(id: $id) {
      inventoryItem {
        measurement {
          weight {
            unit
            value
          }
        }
      }
    }
  }
`
);

const GRAMS_PER_UNIT: Record<string, number> = { GRAMS: 1, KILOGRAMS: 1000, POUNDS: 453.59237, OUNCES: 28.349523125 };

/** The variant's weight in whole grams; null when the shop has no such variant or it has no weight. */
export async function variantGrams(admin: ShopAdmin, variantGid: string): Promise<number | null> {
  const answer = await adminGraphql(admin, VARIANT_WEIGHT_QUERY, { id: variantGid });
  const weight = answer.productVariant?.inventoryItem?.measurement?.weight;
  const perUnit = weight ? GRAMS_PER_UNIT[weight.unit] : undefined;
  if (!weight || perUnit === undefined || !(weight.value > 0)) return null;
  return Math.round(weight.value * perUnit);
}
