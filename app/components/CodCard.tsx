import { Form } from "@remix-run/react";
import { Badge, BlockStack, Button, Card, InlineStack, List, Text, TextField } from "@shopify/polaris";
import type { BadgeTone } from "~/shipments/lifecycle";
import { fill, sayStored, type StoredWords } from "~/locales/admin-language";
import { factorInWords } from "~/cod/risk-words";
import type { RiskFactor, RiskLevel } from "~/cod/risk-score";
import type { ConfirmationState } from "~/cod/confirmation-lifecycle";
import { useAdminLanguage, useAdminStrings } from "./AdminLanguage";
import { formatDate } from "./formatting";

/** The tone each risk level has wherever it is shown (this card, Orders to ship, the order-page block). */
export const RISK_TONES: Readonly<Record<RiskLevel, BadgeTone | undefined>> = { high: "critical", medium: "warning", low: "info", none: undefined };

const STATE_TONES: Readonly<Record<ConfirmationState, BadgeTone | undefined>> = {
  asking: "attention",
  asked: "attention",
  reminded: "attention",
  awaiting_payment: "attention",
  confirmed: "success",
  corrected: "success",
  paid_online: "success",
  cancelled: undefined,
  expired: "warning",
  withdrawn: undefined,
};

export interface CodCardProps {
  risk: { level: RiskLevel; score: number; factors: RiskFactor[]; scoredAt: string } | null;
  confirmation: { state: ConfirmationState; open: boolean; deadlineAt: string; releasedAt: string | null; language: "en" | "hi"; link: string; whatsappUrl: string | null } | null;
  canAsk: boolean;
  history: { step: string; actor: { kind: string; name: string }; at: string; words: StoredWords | null; said: string | null }[];
  timeZone: string;
  /** The intent being submitted on the page, for the buttons' spinners. */
  busy: string | null;
}

/**
 * An order's cash on delivery on its ship page: the RTO risk with each factor in words, the shopper's confirmation
 * (its state, the deadline, the link and one click to WhatsApp it), the actions the merchant has (ask the shopper,
 * stop waiting), and the order's COD history.
 */
export function CodCard({ risk, confirmation, canAsk, history, timeZone, busy }: CodCardProps) {
  const strings = useAdminStrings();
  const t = strings.cod.page;
  const language = useAdminLanguage();
  if (!risk && !confirmation && !canAsk) return null;
  return (
    <Card>
      <BlockStack gap="400">
        {risk ? (
          <BlockStack gap="200">
            <InlineStack gap="200" blockAlign="center">
              <Text as="h2" variant="headingMd">
                {t.riskHeading}
              </Text>
              <Badge tone={RISK_TONES[risk.level]}>{fill(strings.cod.riskBadge, { level: strings.cod.levels[risk.level] })}</Badge>
              <Text as="span" tone="subdued">
                {fill(strings.cod.score, { score: risk.score })}
              </Text>
            </InlineStack>
            <List>
              {risk.factors.map((factor, index) => (
                <List.Item key={`${factor.code}-${index}`}>{factorInWords(factor, language)}</List.Item>
              ))}
            </List>
          </BlockStack>
        ) : null}
        {confirmation ? (
          <BlockStack gap="200">
            <InlineStack gap="200" blockAlign="center">
              <Text as="h2" variant="headingMd">
                {t.confirmationHeading}
              </Text>
              <Badge tone={STATE_TONES[confirmation.state]}>{t.states[confirmation.state]}</Badge>
            </InlineStack>
            {confirmation.open ? (
              <>
                <Text as="p">{fill(t.deadline, { deadline: formatDate(confirmation.deadlineAt, timeZone, language) })}</Text>
                <TextField label={t.link} value={confirmation.link} readOnly autoComplete="off" helpText={fill(t.linkHelp, { language: t.languages[confirmation.language] })} />
                <InlineStack gap="200">
                  {confirmation.whatsappUrl ? (
                    <Button url={confirmation.whatsappUrl} target="_blank" variant="primary">
                      {t.whatsapp}
                    </Button>
                  ) : null}
                  <WithdrawButton label={t.withdraw} busy={busy} />
                </InlineStack>
                <Text as="p" tone="subdued">
                  {t.withdrawHelp}
                </Text>
              </>
            ) : confirmation.state === "expired" && !confirmation.releasedAt ? (
              <InlineStack gap="200" blockAlign="center">
                <Text as="p">{t.expiredHeld}</Text>
                <WithdrawButton label={t.withdraw} busy={busy} />
              </InlineStack>
            ) : null}
          </BlockStack>
        ) : canAsk ? (
          <BlockStack gap="200">
            <Text as="h2" variant="headingMd">
              {t.confirmationHeading}
            </Text>
            <Text as="p" tone="subdued">
              {t.askHelp}
            </Text>
            <InlineStack>
              <Form method="post">
                <input type="hidden" name="intent" value="cod-ask" />
                <Button submit loading={busy === "cod-ask"}>
                  {t.ask}
                </Button>
              </Form>
            </InlineStack>
          </BlockStack>
        ) : null}
        {history.length > 0 ? (
          <BlockStack gap="200">
            <Text as="h3" variant="headingSm">
              {t.historyHeading}
            </Text>
            <BlockStack gap="100" as="ol">
              {history.map((entry, index) => (
                <BlockStack gap="050" as="li" key={`${entry.at}-${index}`}>
                  <InlineStack gap="200" blockAlign="baseline" wrap>
                    <Text as="span" fontWeight="semibold">
                      {strings.cod.steps[entry.step as keyof typeof strings.cod.steps] ?? entry.step}
                    </Text>
                    <Text as="span" tone="subdued">
                      {formatDate(entry.at, timeZone, language)} · {fill(strings.cod.actors[entry.actor.kind as keyof typeof strings.cod.actors] ?? "{name}", { name: entry.actor.name })}
                    </Text>
                  </InlineStack>
                  {entry.said ? (
                    <Text as="p" tone="subdued">
                      {sayStored(language, entry.words, entry.said)}
                    </Text>
                  ) : null}
                </BlockStack>
              ))}
            </BlockStack>
          </BlockStack>
        ) : null}
      </BlockStack>
    </Card>
  );
}

/** "Stop waiting and ship": while the shopper may still answer, and once their silence left the order to the merchant. */
function WithdrawButton({ label, busy }: { label: string; busy: string | null }) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="cod-withdraw" />
      <Button submit loading={busy === "cod-withdraw"}>
        {label}
      </Button>
    </Form>
  );
}
