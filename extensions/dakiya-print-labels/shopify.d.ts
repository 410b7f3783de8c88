import '@shopify/ui-extensions';

//@ts-ignore
declare module './src/print.tsx' {
  const shopify: import('@shopify/ui-extensions/admin.order-index.selection-print-action.render').Api;
  const globalThis: { shopify: typeof shopify };
}
