import { useTranslation } from 'react-i18next';
import { appPasswordProblems } from './rules';

/** What the typed password still lacks under the app's rule, as a live list. */
export function PasswordProblems({ password }: { password: string }) {
  const { t } = useTranslation();
  const problems = password === '' ? [] : appPasswordProblems(password);
  return (
    <ul className="hint" aria-live="polite">
      {problems.map((problem) => <li key={problem}>{t(`password.${problem}`)}</li>)}
    </ul>
  );
}
