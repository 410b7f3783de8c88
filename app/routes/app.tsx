import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Link, Outlet, useLoaderData, useRouteError, type ShouldRevalidateFunction } from "@remix-run/react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { AppProvider } from "@shopify/shopify-app-remix/react";
import { NavMenu } from "@shopify/app-bridge-react";
import polarisStyles from "@shopify/polaris/build/esm/styles.css";
import polarisEn from "@shopify/polaris/locales/en.json";
import { authenticate } from "~/shopify.server";
import { getConfig } from "~/config.server";
import { isAppBridgePage } from "~/components/ShopifyBusyBoundary";
import { AdminLanguageProvider } from "~/components/AdminLanguage";
import { adminLanguageOf, adminStrings, type AdminLanguage } from "~/locales/admin-language";
import { pageTitle } from "~/components/page-titles";
import polarisHi from "~/locales/polaris.hi.json";

/**
 * Polaris' own words (selection checkboxes, banners' dismiss, pagination…) in the admin's language. Polaris ships no
 * Hindi; ours comes first and Polaris' English answers any key it lacks. Built once, so the provider keeps its I18n.
 */
const POLARIS_TRANSLATIONS = { en: polarisEn, hi: [polarisHi, polarisEn] } satisfies Record<AdminLanguage, unknown>;

export const links = () => [{ rel: "stylesheet", href: polarisStyles }];

// The pages below inherit this title (none declares its own): one table names them all.
export const meta: MetaFunction<typeof loader> = ({ location, data }) => [{ title: pageTitle(location.pathname, data?.language) }];

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await authenticate.admin(request);
  // Shopify sends the admin's language as `locale` when it loads the app's frame; a navigation inside the app has none.
  const asked = adminLanguageOf(new URL(request.url).searchParams.get("locale"));
  return { apiKey: getConfig().SHOPIFY_API_KEY, language: asked ?? ("en" as AdminLanguage) };
};

/**
 * The layout's answer (the API key, the admin's language) holds for the frame's whole visit: a navigation inside the
 * app, whose address carries no `locale`, keeps it; an address that names a locale reads it again. Every page's own
 * loader still authenticates its request.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ nextUrl, defaultShouldRevalidate }) => nextUrl.searchParams.has("locale") && defaultShouldRevalidate;

export default function App() {
  const { apiKey, language } = useLoaderData<typeof loader>();
  const t = adminStrings(language).pages;
  return (
    <AppProvider isEmbeddedApp apiKey={apiKey} i18n={POLARIS_TRANSLATIONS[language]}>
      <NavMenu>
        <Link to="/app" rel="home">
          {t.home}
        </Link>
        <Link to="/app/orders">{t.ordersToShip}</Link>
        <Link to="/app/shipments">{t.shipments}</Link>
        <Link to="/app/failed-deliveries">{t.failedDeliveries}</Link>
        <Link to="/app/cod">{t.cod}</Link>
        <Link to="/app/freight">{t.freight}</Link>
        <Link to="/app/attention">{t.needsAttention}</Link>
        <Link to="/app/auto-booking">{t.autoBooking}</Link>
        <Link to="/app/settings">{t.settings}</Link>
        <Link to="/app/storefront">{t.storefront}</Link>
      </NavMenu>
      {/* The page's content is the document's main landmark: a screen reader jumps to it, and nothing is left outside a region. */}
      <AdminLanguageProvider language={language}>
        <main>
          <Outlet />
        </main>
      </AdminLanguageProvider>
    </AppProvider>
  );
}

/**
 * Shopify's boundary keeps App Bridge's re-auth pages intact inside the admin iframe, but it recognises them by
 * class name, which the browser bundle's minifier renames: the same test is made here with Remix's own
 * `isRouteErrorResponse`, so a page renders the same on the server and in the browser.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    if (isAppBridgePage(error.data)) return <div dangerouslySetInnerHTML={{ __html: error.data }} />;
    return <p>{typeof error.data === "string" && error.data ? error.data : `${error.status} ${error.statusText}`}</p>;
  }
  return boundary.error(error);
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
