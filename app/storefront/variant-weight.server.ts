import { adminGraphql, type ShopAdmin } from "~/shopify/admin-graphql.server";
import { adminDocument } from "~/shopify/admin-document";
import type { StorefrontVariantWeightsQuery, StorefrontVariantWeightsQueryVariables } from "~/types/admin.generated";

/**
 * Product variants' shipping weights as the merchant entered them in Shopify (each variant's inventory item), for
 * storefronts that name the variant rather than its weight (a headless storefront, say). Read in batches by the
 * background job, never on a shopper's request. Needs `read_products`.
 */
const VARIANT_WEIGHTS_QUERY = adminDocument<StorefrontVariantWeightsQuery, StorefrontVariantWeightsQueryVariables>(
  `#graphql
  query StorefrontVariantWeights($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on ProductVariant {
        id
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
  }
`
);

const GRAMS_PER_UNIT: Record<string, number> = { GRAMS: 1, KILOGRAMS: 1000, POUNDS: 453.59237, OUNCES: 28.349523125 };

/**
 * The weights of the variants Shopify knows among `variantGids`, in whole grams (null: the variant has no weight).
 * A variant the shop does not have is not in the answer.
 */
export async function readVariantWeights(admin: ShopAdmin, variantGids: readonly string[]): Promise<Map<string, number | null>> {
  const answer = await adminGraphql(admin, VARIANT_WEIGHTS_QUERY, { ids: [...variantGids] });
  const weights = new Map<string, number | null>();
  for (const node of answer.nodes) {
    if (!node || !("id" in node) || !variantGids.includes(node.id)) continue;
    const weight = node.inventoryItem?.measurement?.weight;
    const perUnit = weight ? GRAMS_PER_UNIT[weight.unit] : undefined;
    weights.set(node.id, weight && perUnit !== undefined && weight.value > 0 ? Math.round(weight.value * perUnit) : null);
  }
  return weights;
}
