import { List, ThemeIcon, VisuallyHidden } from '@mantine/core';
import type { PasswordRule } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { CheckIcon, CrossIcon } from '../shell/icons';
import { passwordChecklist } from './password-rule';

/**
 * The live list of the password rule under a new-password field: each line turns green as it is
 * met, so the user sees what is missing before submitting rather than after.
 */
export function PasswordChecklist({
  password,
  rule,
  id,
}: {
  password: string;
  rule: PasswordRule;
  id: string;
}) {
  const { t } = useTranslation();
  const specials = Array.from(rule.special).join(' ');
  return (
    <List id={id} spacing={2} size="sm" aria-label={t('passwordRule.title')} data-testid="password-checklist">
      {passwordChecklist(password, rule).map(({ item, isMet }) => (
        <List.Item
          key={item}
          data-met={isMet}
          c={isMet ? 'teal.8' : 'dimmed'}
          icon={
            <ThemeIcon
              size={16}
              radius="xl"
              color={isMet ? 'teal' : 'gray'}
              variant={isMet ? 'filled' : 'light'}
            >
              {isMet ? <CheckIcon width={11} height={11} /> : <CrossIcon width={10} height={10} />}
            </ThemeIcon>
          }
        >
          {t(`passwordRule.${item}`, { min: rule.minLength, max: rule.maxLength, specials })}{' '}
          <VisuallyHidden>{isMet ? t('passwordRule.met') : t('passwordRule.notMet')}</VisuallyHidden>
        </List.Item>
      ))}
    </List>
  );
}
