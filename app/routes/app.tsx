import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Link, Outlet, useLoaderData, useRouteError } from "@remix-run/react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { AppProvider } from "@shopify/shopify-app-remix/react";
import { NavMenu } from "@shopify/app-bridge-react";
import polarisStyles from "@shopify/polaris/build/esm/styles.css";
import { authenticate } from "~/shopify.server";
import { getConfig } from "~/config.server";
import { isAppBridgePage } from "~/components/ShopifyBusyBoundary";
import { pageTitle } from "~/components/page-titles";

export const links = () => [{ rel: "stylesheet", href: polarisStyles }];

// The pages below inherit this title (none declares its own): one table names them all.
export const meta: MetaFunction = ({ location }) => [{ title: pageTitle(location.pathname) }];

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await authenticate.admin(request);
  return { apiKey: getConfig().SHOPIFY_API_KEY };
};

export default function App() {
  const { apiKey } = useLoaderData<typeof loader>();
  return (
    <AppProvider isEmbeddedApp apiKey={apiKey}>
      <NavMenu>
        <Link to="/app" rel="home">
          Home
        </Link>
        <Link to="/app/orders">Orders to ship</Link>
        <Link to="/app/shipments">Shipments</Link>
        <Link to="/app/attention">Needs attention</Link>
        <Link to="/app/auto-booking">Auto-booking</Link>
        <Link to="/app/settings">Settings</Link>
        <Link to="/app/storefront">Storefront</Link>
      </NavMenu>
      {/* The page's content is the document's main landmark: a screen reader jumps to it, and nothing is left outside a region. */}
      <main>
        <Outlet />
      </main>
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
