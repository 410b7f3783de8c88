import '@shopify/ui-extensions';

//@ts-ignore
declare module './src/bulk-action.tsx' {
  const shopify: import('@shopify/ui-extensions/admin.order-index.selection-action.render').Api;
  const globalThis: { shopify: typeof shopify };
}
