import { createContext, useContext, type ReactNode } from "react";
import { adminStrings, type AdminLanguage, type AdminStrings } from "~/locales/admin-language";

const AdminLanguageContext = createContext<AdminLanguage>("en");

/** The admin's language for every page under the layout (app/routes/app.tsx chooses it). */
export function AdminLanguageProvider({ language, children }: { language: AdminLanguage; children: ReactNode }) {
  return <AdminLanguageContext.Provider value={language}>{children}</AdminLanguageContext.Provider>;
}

export const useAdminLanguage = (): AdminLanguage => useContext(AdminLanguageContext);

/** The words of the admin pages in the merchant's language. */
export const useAdminStrings = (): AdminStrings => adminStrings(useAdminLanguage());
