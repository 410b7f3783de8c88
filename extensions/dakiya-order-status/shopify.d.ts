import '@shopify/ui-extensions';

//@ts-ignore
declare module './src/parcel.tsx' {
  const shopify: import('@shopify/ui-extensions/customer-account.order-status.fulfillment-details.render-after').Api;
  const globalThis: { shopify: typeof shopify };
}

//@ts-ignore
declare module './src/parcel-api.ts' {
  const shopify: import('@shopify/ui-extensions/customer-account.order-status.fulfillment-details.render-after').Api;
  const globalThis: { shopify: typeof shopify };
}
