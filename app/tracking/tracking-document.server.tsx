import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import stylesheet from "~/styles/tracking.css";
import type { PublicSeller } from "./seller.server";
import { LANGUAGES, stringsFor, type Language } from "./tracking-locale";

/**
 * The public tracking pages' document: plain server-rendered HTML with no client JavaScript, outside the admin's
 * root (app/root.tsx, which is the embedded admin's: `lang="en"` fixed, Shopify's CDN, Remix's scripts).
 *
 * Why no JavaScript: the page is opened from a phone, often on a slow connection, and has nothing to do in the
 * browser — the language switch is a link and the lookup a GET form — so React and Remix's runtime (≈90 KB
 * compressed, 260 KB of script for a phone to parse, in this build) would only delay it. Rendering its own document also lets each page declare its language on
 * `<html lang>` (Hindi pages are `lang="hi"`) and send a Content-Security-Policy that allows no script at all.
 */

const SECURITY_HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  // Shoppers' parcels are nobody's search result.
  "X-Robots-Tag": "noindex, nofollow",
  "Content-Security-Policy": "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  // The awb is in the address; no other site needs it.
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
  // The language may come from Accept-Language.
  Vary: "Accept-Language",
};

export interface PageResponse {
  status: number;
  language: Language;
  /** `Cache-Control`: a found shipment may be kept a minute by the shopper's browser; errors never. */
  cacheControl: string;
  headers?: Record<string, string>;
  /** The seller's logo, the one image from elsewhere the page may load (its origin is added to img-src). */
  logoUrl?: string | null;
}

/** The document as a response, with the headers every tracking page carries. */
export function htmlResponse(document: ReactNode, { status, language, cacheControl, headers = {}, logoUrl }: PageResponse): Response {
  const html = `<!DOCTYPE html>${renderToStaticMarkup(document)}`;
  const logoOrigin = logoUrl && URL.canParse(logoUrl) ? new URL(logoUrl).origin : null;
  const csp = logoOrigin?.startsWith("https://") ? SECURITY_HEADERS["Content-Security-Policy"].replace("img-src 'self'", `img-src 'self' ${logoOrigin}`) : SECURITY_HEADERS["Content-Security-Policy"];
  return new Response(html, { status, headers: { ...SECURITY_HEADERS, "Content-Security-Policy": csp, "Content-Language": language, "Cache-Control": cacheControl, ...headers } });
}

/** `/track/…?lang=xx`: the same page in another language (a path with a query keeps it). */
const inLanguage = (path: string, language: Language) => `${path}${path.includes("?") ? "&" : "?"}lang=${language}`;

export interface TrackingDocumentProps {
  language: Language;
  title: string;
  /** The page's own path, with any query but the language, for the language switch. */
  path: string;
  /** The shop the parcel comes from, shown in the header with a link back to its store (the full view only). */
  seller?: PublicSeller | null;
  children: ReactNode;
}

export function TrackingDocument({ language, title, path, seller, children }: TrackingDocumentProps) {
  const t = stringsFor(language);
  return (
    <html lang={language} dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <meta name="color-scheme" content="light" />
        <title>{title}</title>
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* Empty only under the test runner, which loads CSS as nothing. */}
        {stylesheet ? <link rel="stylesheet" href={stylesheet} /> : null}
      </head>
      <body>
        <header className="bar">
          {seller ? (
            <p className="brand">
              {/* The shop's name is the link's text; the logo beside it says nothing more. */}
              <a href={seller.storeUrl} rel="noopener">
                {seller.logoUrl ? <img src={seller.logoUrl} alt="" className="logo" width={32} height={32} /> : null}
                <span>{seller.name}</span>
                <span className="visually-hidden"> – {t.seller.backToStore}</span>
              </a>
            </p>
          ) : (
            <p className="brand">{t.document.brand}</p>
          )}
          <nav aria-label={t.language.switchLabel} className="languages">
            <ul>
              {LANGUAGES.map((other) => (
                <li key={other}>
                  <a href={inLanguage(path, other)} lang={other} hrefLang={other} aria-current={other === language ? "true" : undefined}>
                    {stringsFor(other).language.name}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        </header>
        <main>{children}</main>
        <footer className="foot">
          <p>{t.document.timeZone}</p>
          <p>
            <a href={inLanguage("/track", language)}>{t.lookup.another}</a>
          </p>
        </footer>
      </body>
    </html>
  );
}

export interface LookupFormProps {
  language: Language;
  /** What the shopper typed, shown again. */
  value?: string;
  error?: string;
}

/** A GET form to `/track`, which sends the shopper on to `/track/{awb}` in the same language. */
export function LookupForm({ language, value, error }: LookupFormProps) {
  const t = stringsFor(language);
  return (
    <form method="get" action="/track" className="lookup">
      <input type="hidden" name="lang" value={language} />
      <label htmlFor="awb">{t.lookup.label}</label>
      <input
        id="awb"
        name="awb"
        type="text"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        maxLength={64}
        required
        defaultValue={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "awb-error" : undefined}
      />
      {error ? (
        <p id="awb-error" className="field-error">
          {error}
        </p>
      ) : null}
      <button type="submit">{t.lookup.submit}</button>
    </form>
  );
}
