import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { appConfig } from '@/lib/config';

/** Sets the tab title to "<page> · <app name>", following the language. */
export function useDocumentTitle(pageTitle: string | null | undefined): void {
  useTranslation();
  useEffect(() => {
    document.title = pageTitle ? `${pageTitle} · ${appConfig.appName}` : appConfig.appName;
  }, [pageTitle]);
}
