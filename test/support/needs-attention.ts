import { signSessionToken } from "../../store/auth";
import { appCredentials } from "./store";

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";

export interface FailedWorkShown {
  queue: string;
  subject: string;
  reason: string;
  attempts: number;
}

/**
 * The background work a running app's Needs attention page shows the merchant as failed for good ("Background work
 * that needs you"), read through the page's loader as the admin reads it.
 */
export async function failedWorkShown(appUrl: string, shop: string): Promise<FailedWorkShown[]> {
  const response = await fetch(`${appUrl}/app/attention?_data=routes%2Fapp.attention`, {
    headers: { Authorization: `Bearer ${signSessionToken(appCredentials(), shop)}`, "User-Agent": BROWSER },
  });
  if (!response.ok) throw new Error(`Needs attention answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  const page = (await response.json()) as { failedJobs: FailedWorkShown[] };
  return page.failedJobs.map(({ queue, subject, reason, attempts }) => ({ queue, subject, reason, attempts }));
}
