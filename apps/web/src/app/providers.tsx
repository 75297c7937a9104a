import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import type { FlashStore } from '@/lib/flash';
import { FlashProvider } from '@/lib/flash-context';
import type { SessionStore } from '@/lib/session';
import { SessionProvider } from '@/lib/session-context';

export interface AppServices {
  session: SessionStore;
  flash: FlashStore;
  queryClient: QueryClient;
  i18n: I18n;
}

export function Providers({ services, children }: { services: AppServices; children: ReactNode }) {
  return (
    <I18nextProvider i18n={services.i18n}>
      <QueryClientProvider client={services.queryClient}>
        <SessionProvider store={services.session}>
          <FlashProvider store={services.flash}>{children}</FlashProvider>
        </SessionProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
