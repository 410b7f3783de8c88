import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AppProvider as PolarisAppProvider, Button, Card, FormLayout, Page, Text, TextField } from "@shopify/polaris";
import polarisTranslations from "@shopify/polaris/locales/en.json";
import polarisStyles from "@shopify/polaris/build/esm/styles.css";
import { useState } from "react";
import { LoginErrorType } from "@shopify/shopify-app-remix/server";
import { login } from "~/shopify.server";

export const links = () => [{ rel: "stylesheet", href: polarisStyles }];

type LoginErrors = { shop?: string };

function toLoginErrors(result: unknown): LoginErrors {
  const errors = (result ?? {}) as { shop?: LoginErrorType };
  if (errors.shop === LoginErrorType.MissingShop) return { shop: "Enter your store's domain to log in" };
  if (errors.shop === LoginErrorType.InvalidShop) return { shop: "Enter a valid domain, e.g. my-store.myshopify.com" };
  return {};
}

export const loader = async ({ request }: LoaderFunctionArgs) => ({ errors: toLoginErrors(await login(request)) });

/** The login form, and nothing else: a body that is not a form is a 415 saying so, not a failure in the library. */
async function refuseAnythingButTheForm(request: Request): Promise<void> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) {
    throw new Response("Log in with the form: send the shop domain as application/x-www-form-urlencoded (shop=my-store.myshopify.com).", { status: 415 });
  }
  try {
    await request.clone().formData();
  } catch {
    throw new Response("The login form could not be read: send shop=my-store.myshopify.com as application/x-www-form-urlencoded.", { status: 400 });
  }
}

export const action = async ({ request }: ActionFunctionArgs) => {
  await refuseAnythingButTheForm(request);
  return { errors: toLoginErrors(await login(request)) };
};

export default function Auth() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [shop, setShop] = useState("");
  const { errors } = actionData ?? loaderData;
  return (
    <PolarisAppProvider i18n={polarisTranslations}>
      <Page>
        <Card>
          <Form method="post">
            <FormLayout>
              <Text variant="headingMd" as="h2">
                Log in to Dakiya
              </Text>
              <TextField
                type="text"
                name="shop"
                label="Shop domain"
                helpText="example.myshopify.com"
                value={shop}
                onChange={setShop}
                autoComplete="on"
                error={errors.shop}
              />
              <Button submit>Log in</Button>
            </FormLayout>
          </Form>
        </Card>
      </Page>
    </PolarisAppProvider>
  );
}
