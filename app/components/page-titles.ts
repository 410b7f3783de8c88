import { adminStrings, type AdminLanguage, type AdminStrings } from "~/locales/admin-language";

/**
 * Each admin page's document title, as a screen reader announces the page and the browser names its history
 * entry: the page's own name, then the app's. One table for the layout (app/routes/app.tsx), so that the pages need
 * no title code of their own. Pure.
 */
const TITLES: ReadonlyArray<[pattern: RegExp, page: keyof AdminStrings["pages"]]> = [
  [/^\/app\/?$/, "home"],
  [/^\/app\/orders\/compare\/?$/, "compare"],
  [/^\/app\/orders\/[^/]+\/ship\/?$/, "ship"],
  [/^\/app\/orders\/?$/, "ordersToShip"],
  [/^\/app\/shipments\/?$/, "shipments"],
  [/^\/app\/attention\/?$/, "needsAttention"],
  [/^\/app\/failed-deliveries\/?$/, "failedDeliveries"],
  [/^\/app\/failed-deliveries\/rules\/?$/, "failedDeliveryRules"],
  [/^\/app\/failed-deliveries\/email\/?$/, "ndrEmail"],
  [/^\/app\/auto-booking\/?$/, "autoBooking"],
  [/^\/app\/settings\/?$/, "settings"],
  [/^\/app\/storefront\/?$/, "storefront"],
  [/^\/app\/cod\/?$/, "cod"],
  [/^\/app\/cod\/statements\/[^/]+\/?$/, "codStatement"],
  [/^\/app\/freight\/?$/, "freight"],
  [/^\/app\/freight\/disputes\/[^/]+\/?$/, "dispute"],
  [/^\/app\/data-requests\/[^/]+\/?$/, "dataRequest"],
];

export function pageTitle(pathname: string, language: AdminLanguage = "en"): string {
  const strings = adminStrings(language);
  const page = TITLES.find(([pattern]) => pattern.test(pathname))?.[1];
  return page ? `${strings.pages[page]} · ${strings.appName}` : strings.appName;
}
