/**
 * An Admin GraphQL document with the types Shopify's codegen generated for it (app/types/admin.generated.d.ts, from
 * the committed 2026-10 schema: `npm run graphql:codegen`): what it answers and the variables it takes. adminGraphql
 * reads both from the document, so a field the code reads and the document does not ask for fails the typecheck.
 */
export type AdminDocument<Answer, Variables> = string & { readonly __answer?: Answer; readonly __variables?: Variables };

export const adminDocument = <Answer, Variables>(source: string): AdminDocument<Answer, Variables> => source as AdminDocument<Answer, Variables>;
