import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSelect } from './language-select';

/** The signed-out screens' frame: the app's name, the language choice and one card. */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="auth">
      <header className="auth-header">
        <span className="brand">{t('appName')}</span>
        <LanguageSelect />
      </header>
      <main className="card">
        <h1>{title}</h1>
        {children}
      </main>
    </div>
  );
}
