import { SaveBar, useAppBridge } from "@shopify/app-bridge-react";
import { useBlocker } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState, type RefObject } from "react";
import { useAdminStrings } from "./AdminLanguage";

/** What a form would submit now, to compare with what it held when loaded or last saved. */
function snapshot(form: HTMLFormElement): string {
  return JSON.stringify([...new FormData(form).entries()].map(([name, value]) => [name, typeof value === "string" ? value : value.name]));
}

/**
 * Whether a form differs from what it held when it was loaded or last saved. `saveResult` is the form action's answer:
 * once one says `ok`, what the form holds then becomes the saved state. Pass `onChange` to the form: the comparison
 * waits for React's render, after which controlled fields and their hidden inputs hold the new value.
 */
export function useFormChanged(form: RefObject<HTMLFormElement>, saveResult: { ok?: boolean } | undefined): { changed: boolean; onChange: () => void } {
  // The last successful answer, kept while later answers refuse: a refused save leaves the edits unsaved.
  const [savedVersion, setSavedVersion] = useState<unknown>(null);
  if (saveResult?.ok && saveResult !== savedVersion) setSavedVersion(saveResult);
  const saved = useRef<string | null>(null);
  const [changed, setChanged] = useState(false);
  useEffect(() => {
    if (form.current) saved.current = snapshot(form.current);
    setChanged(false);
  }, [form, savedVersion]);
  const onChange = useCallback(() => {
    setTimeout(() => {
      if (form.current && saved.current !== null) setChanged(snapshot(form.current) !== saved.current);
    });
  }, [form]);
  return { changed, onChange };
}

/**
 * The admin's contextual save bar while a page has unsaved edits, as Shopify's own pages show it: Save and Discard in
 * the admin's top bar, and a question before the merchant leaves the page (the admin asks for its own navigation;
 * links inside the app ask through App Bridge's leave confirmation).
 */
export function FormSaveBar({ id, changed, saving, onSave, onDiscard }: { id: string; changed: boolean; saving: boolean; onSave: () => void; onDiscard: () => void }) {
  const shopify = useAppBridge();
  const t = useAdminStrings().common.saveBar;
  const blocker = useBlocker(({ currentLocation, nextLocation }) => changed && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    shopify.saveBar.leaveConfirmation().then(
      () => blocker.proceed(),
      () => blocker.reset(),
    );
  }, [blocker, shopify]);
  return (
    <SaveBar id={id} open={changed || saving}>
      <button variant="primary" onClick={onSave} disabled={saving} {...(saving ? { loading: "" } : {})}>
        {t.save}
      </button>
      <button onClick={onDiscard} disabled={saving}>
        {t.discard}
      </button>
    </SaveBar>
  );
}
