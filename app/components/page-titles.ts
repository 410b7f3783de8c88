/**
 * Each admin page's document title, as a screen reader announces the page and the browser names its history
 * entry: the page's own name, then the app's. One table for the layout (app/routes/app.tsx), so that the pages need
 * no title code of their own. Pure.
 */
const TITLES: ReadonlyArray<[pattern: RegExp, title: string]> = [
  [/^\/app\/?$/, "Home"],
  [/^\/app\/orders\/compare\/?$/, "Compare rates"],
  [/^\/app\/orders\/[^/]+\/ship\/?$/, "Ship order"],
  [/^\/app\/orders\/?$/, "Orders to ship"],
  [/^\/app\/shipments\/?$/, "Shipments"],
  [/^\/app\/attention\/?$/, "Needs attention"],
  [/^\/app\/auto-booking\/?$/, "Auto-booking"],
  [/^\/app\/settings\/?$/, "Settings"],
  [/^\/app\/storefront\/?$/, "Storefront"],
  [/^\/app\/data-requests\/[^/]+\/?$/, "Data request"],
];

export const APP_NAME = "Dakiya";

export function pageTitle(pathname: string): string {
  const page = TITLES.find(([pattern]) => pattern.test(pathname))?.[1];
  return page ? `${page} · ${APP_NAME}` : APP_NAME;
}
