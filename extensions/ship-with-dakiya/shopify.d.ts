import '@shopify/ui-extensions';

//@ts-ignore
declare module './src/action.tsx' {
  const shopify: import('@shopify/ui-extensions/admin.order-details.action.render').Api;
  const globalThis: { shopify: typeof shopify };
}

//@ts-ignore
declare module './src/should-render.ts' {
  const shopify: import('@shopify/ui-extensions/admin.order-details.action.should-render').Api;
  const globalThis: { shopify: typeof shopify };
}

//@ts-ignore
declare module './src/views.tsx' {
  const shopify: import('@shopify/ui-extensions/admin.order-details.action.render').Api;
  const globalThis: { shopify: typeof shopify };
}
