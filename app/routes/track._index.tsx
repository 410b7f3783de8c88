import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { htmlResponse, LookupForm, TrackingDocument } from "~/tracking/tracking-document.server";
import { pickLanguage, stringsFor } from "~/tracking/tracking-locale";

/**
 * `GET /track`: "enter your tracking number". The form sends `?awb=…&lang=…` here, and the shopper goes on to
 * `/track/{awb}` (which answers 404 itself for a number that cannot be one). Nothing is looked up here.
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const url = new URL(request.url);
  const language = pickLanguage(url.searchParams.get("lang"), request.headers.get("accept-language"));
  const typed = url.searchParams.get("awb");
  const awb = typed?.trim().slice(0, 256) ?? "";
  if (awb) throw redirect(`/track/${encodeURIComponent(awb)}?lang=${language}`, { status: 303 });

  const t = stringsFor(language);
  const missing = typed !== null;
  return htmlResponse(
    <TrackingDocument language={language} title={t.lookup.title} path={url.pathname}>
      <h1>{t.lookup.title}</h1>
      <p className="lead">{t.lookup.intro}</p>
      <LookupForm language={language} error={missing ? t.lookup.missing : undefined} />
    </TrackingDocument>,
    { status: missing ? 400 : 200, language, cacheControl: missing ? "no-store" : "private, max-age=300" },
  );
};
