import { ApiVersion } from "@shopify/shopify-app-remix/server";

/** The Admin API version every call is made on; the schema in graphql/ is this version's. */
export const ADMIN_API_VERSION = ApiVersion.October26;
