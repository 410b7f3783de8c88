import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData, useRevalidator } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { Banner, BlockStack, Button, Card, DropZone, InlineStack, Layout, Page, Text, Thumbnail } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { useAdminLanguage, useAdminStrings } from "~/components/AdminLanguage";
import { formatKg, formatPaise } from "~/components/formatting";
import { downloadFile } from "~/components/downloads";
import { fill } from "~/locales/admin-language";
import { disputeFacts } from "~/reconciliation/freight-audit.server";
import { PHOTO_MAX_BYTES } from "~/reconciliation/upload-limits";
import { authenticate } from "~/shopify.server";
import { shopAdmin } from "~/shopify/admin-graphql.server";
import { whenShopifyAnswers } from "~/shopify/busy.server";
import { getShopOverview } from "~/shopify/shop.server";
import { rowIdOf } from "~/security/row-id";

/** A parcel's weight dispute: the facts the pack holds, the packing photo to attach, and the pack to download. */
export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { admin: shopify, session } = await authenticate.admin(request);
  const id = rowIdOf(params.id);
  const facts = id === null ? null : await disputeFacts(session.shop, id);
  // Another shop's parcel and one that does not exist answer alike.
  if (!facts) throw new Response("There is no such parcel in this shop.", { status: 404 });
  const { ianaTimezone: timeZone } = await whenShopifyAnswers(() => getShopOverview(shopAdmin(session.shop, shopify)));
  return json({ facts, timeZone });
};

type PhotoRefusal = keyof ReturnType<typeof useAdminStrings>["reconciliation"]["dispute"]["photo"]["refused"];

export default function WeightDispute() {
  const { facts, timeZone } = useLoaderData<typeof loader>();
  const strings = useAdminStrings();
  const language = useAdminLanguage();
  const t = strings.reconciliation.dispute;
  const shopify = useAppBridge();
  const revalidator = useRevalidator();
  const [photoUrl, setPhotoUrl] = useState<string | null>(null);
  const [photoTrouble, setPhotoTrouble] = useState<PhotoRefusal | null>(null);
  const [busy, setBusy] = useState(false);
  const [downloadFailed, setDownloadFailed] = useState(false);
  const kg = (grams: number | null) => (grams === null ? t.declared.unknown : formatKg(grams / 1000, language));
  const rupees = (paise: number | null) => (paise === null ? t.declared.unknown : formatPaise(paise));
  const day = (iso: string) => new Date(iso).toLocaleDateString(language === "hi" ? "hi-IN" : "en-IN", { timeZone, day: "numeric", month: "short", year: "numeric" });
  const photoPath = `/app/freight/photo/${facts.shipmentId}`;

  // The photo is the shop's data: read with the session token (App Bridge's fetch), shown from memory.
  useEffect(() => {
    if (!facts.photo) return setPhotoUrl(null);
    let url: string | null = null;
    let live = true;
    void fetch(photoPath)
      .then((response) => (response.ok ? response.blob() : null))
      .then((blob) => {
        if (!blob || !live) return;
        url = URL.createObjectURL(blob);
        setPhotoUrl(url);
      })
      .catch(() => undefined);
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [facts.photo, photoPath]);

  const attach = async (files: File[]) => {
    const photo = files[0];
    if (!photo) return;
    setPhotoTrouble(null);
    if (photo.size > PHOTO_MAX_BYTES) return setPhotoTrouble("too_large");
    setBusy(true);
    try {
      const response = await fetch(photoPath, { method: "POST", body: photo, headers: { "Content-Type": photo.type || "application/octet-stream" } });
      const answer = (await response.json().catch(() => ({}))) as { ok?: boolean; code?: PhotoRefusal };
      if (!response.ok || !answer.ok) return setPhotoTrouble(answer.code && answer.code in t.photo.refused ? answer.code : "failed");
      shopify.toast.show(t.photo.saved);
      revalidator.revalidate();
    } catch {
      setPhotoTrouble("failed");
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    setBusy(true);
    const response = await fetch(photoPath, { method: "DELETE" }).catch(() => null);
    setBusy(false);
    if (response?.ok) {
      shopify.toast.show(t.photo.removed);
      revalidator.revalidate();
    } else setPhotoTrouble("failed");
  };
  const download = async () => setDownloadFailed(!(await downloadFile(`/app/freight/pack/${facts.shipmentId}`, null, `weight-dispute-${facts.awb}.pdf`)));

  return (
    <Page title={strings.pages.dispute} subtitle={`${facts.parcelName} · ${fill(t.parcel.awb, { awb: facts.awb })}`} backAction={{ content: t.back, url: "/app/freight" }} primaryAction={{ content: t.download, onAction: () => void download() }}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <Text as="p" tone="subdued">
              {t.intro}
            </Text>
            {downloadFailed ? <Banner tone="critical">{t.downloadFailed}</Banner> : null}
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  {t.parcel.heading}
                </Text>
                <Text as="p">{fill(t.parcel.courier, { courier: facts.courierName ?? "—" })}</Text>
                <Text as="p">{fill(t.parcel.booked, { date: day(facts.bookedAt) })}</Text>
                {facts.deliveredAt ? <Text as="p">{fill(t.parcel.delivered, { date: day(facts.deliveredAt) })}</Text> : null}
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  {t.declared.heading}
                </Text>
                <Text as="p">{fill(t.declared.weight, { weight: kg(facts.declaredWeightGrams) })}</Text>
                <Text as="p">{facts.packageName ? fill(t.declared.box, { box: facts.packageName, dimensions: facts.box ? `${facts.box.length} × ${facts.box.breadth} × ${facts.box.height} cm` : t.declared.unknown }) : t.declared.noBox}</Text>
                <Text as="p">{fill(t.declared.volumetric, { weight: kg(facts.volumetricWeightGrams) })}</Text>
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  {t.quote.heading}
                </Text>
                <Text as="p">{fill(t.quote.weight, { weight: kg(facts.quote.weightGrams) })}</Text>
                {facts.quote.estimated ? (
                  <Text as="p" tone="subdued">
                    {t.quote.estimated}
                  </Text>
                ) : null}
                <Text as="p">{fill(t.quote.charges, { freight: rupees(facts.quote.freightPaise), cod: rupees(facts.quote.codChargePaise), total: rupees(facts.quote.totalPaise) })}</Text>
                <Text as="p">{fill(t.quote.zone, { zone: facts.quote.zone ?? "—", days: facts.quote.edd ?? "—" })}</Text>
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  {t.charged.heading}
                </Text>
                {facts.charges.length === 0 ? (
                  <Text as="p" tone="subdued">
                    {t.charged.none}
                  </Text>
                ) : (
                  facts.charges.map((charge) => (
                    <Text as="p" key={`${charge.statementId}-${charge.row}`} tone={charge.extraWeightGrams || charge.extraPaise ? "critical" : undefined}>
                      {`${charge.chargedOn ? `${day(charge.chargedOn)}: ` : ""}${fill(t.charged.line, { weight: kg(charge.chargedWeightGrams), amount: formatPaise(charge.chargedPaise) })} — ${
                        charge.extraWeightGrams || charge.extraPaise ? fill(t.charged.over, { weight: kg(charge.extraWeightGrams ?? 0), amount: formatPaise(charge.extraPaise ?? 0) }) : t.charged.asQuoted
                      }`}
                    </Text>
                  ))
                )}
              </BlockStack>
            </Card>
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <BlockStack gap="400">
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  {t.photo.heading}
                </Text>
                <Text as="p" tone="subdued">
                  {t.photo.help}
                </Text>
                {facts.photo && photoUrl ? <Thumbnail source={photoUrl} alt={fill(t.photo.alt, { parcel: facts.parcelName })} size="large" /> : null}
                {!facts.photo ? (
                  <Text as="p" tone="subdued">
                    {t.photo.none}
                  </Text>
                ) : null}
                {photoTrouble ? <Banner tone="critical">{t.photo.refused[photoTrouble]}</Banner> : null}
                <DropZone label={facts.photo ? t.photo.replace : t.photo.choose} accept="image/jpeg,image/png" type="image" allowMultiple={false} onDrop={(files: File[]) => void attach(files)} disabled={busy}>
                  <DropZone.FileUpload />
                </DropZone>
                {facts.photo ? (
                  <InlineStack>
                    <Button tone="critical" variant="plain" onClick={() => void remove()} disabled={busy}>
                      {t.photo.remove}
                    </Button>
                  </InlineStack>
                ) : null}
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  {t.label.heading}
                </Text>
                <Text as="p">{facts.labelPrintedAt ? fill(t.label.printed, { date: day(facts.labelPrintedAt) }) : t.label.notPrinted}</Text>
              </BlockStack>
            </Card>
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export { ShopifyBusyBoundary as ErrorBoundary } from "~/components/ShopifyBusyBoundary";
