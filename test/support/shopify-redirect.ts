import { installShopifyFetchRedirect } from "../../store/redirect-fetch";

// Before any test file imports the Shopify library, which keeps the fetch it finds.
installShopifyFetchRedirect();
