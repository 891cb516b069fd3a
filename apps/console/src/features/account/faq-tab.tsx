import { Accordion, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Questions people ask about signing in and their data; answers live in the i18n catalogue. */
const QUESTIONS = [
  'otp',
  'otpNotArrived',
  'locked',
  'passwordRules',
  'forgotPassword',
  'otherSessions',
  'language',
  'dataPrivacy',
] as const;

export function FaqTab() {
  const { t } = useTranslation('account');
  return (
    <Stack gap="md" maw={820}>
      <Text c="dimmed" fz="sm">
        {t('faq.intro')}
      </Text>
      <Accordion variant="separated" radius="md" multiple>
        {QUESTIONS.map((id) => (
          <Accordion.Item key={id} value={id}>
            <Accordion.Control>{t(`faq.items.${id}.question`)}</Accordion.Control>
            <Accordion.Panel>
              <Text fz="sm">{t(`faq.items.${id}.answer`)}</Text>
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </Stack>
  );
}
