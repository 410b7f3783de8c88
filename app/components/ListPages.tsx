import { InlineStack, Pagination } from "@shopify/polaris";
import { useAdminStrings } from "./AdminLanguage";

/**
 * The previous and next pages of a long list (the COD ledger, a statement's lines, the over-charges), in a navigation
 * landmark named after the list; nothing while the list fits one page.
 */
export function ListPages({ label, page, more, toPage }: { label: string; page: number; more: boolean; toPage: (page: number) => void }) {
  const t = useAdminStrings().reconciliation.cod.pagination;
  if (page <= 1 && !more) return null;
  return (
    <nav aria-label={label}>
      <InlineStack align="center">
        <Pagination
          hasPrevious={page > 1}
          onPrevious={() => toPage(page - 1)}
          previousTooltip={t.previous}
          hasNext={more}
          onNext={() => toPage(page + 1)}
          nextTooltip={t.next}
          accessibilityLabels={{ previous: t.previous, next: t.next }}
        />
      </InlineStack>
    </nav>
  );
}
