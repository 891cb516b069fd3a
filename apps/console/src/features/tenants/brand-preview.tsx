import { Anchor, Box, Button, Group, Image, Paper, Stack, Text } from '@mantine/core';
import { TENANT_SETTING_DEFAULTS } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { fontStack, generateShades, isHexColor } from '../../theme';
import { PulseIcon } from '../shell/icons';

/**
 * A small copy of the console's header and a page with the tenant's colour, font and logo, as
 * the tenant's users will see them once saved. Built from the same theme helpers as the real
 * theme, so what is previewed is what applies; an unfinished colour falls back to the default.
 */
export function BrandPreview({
  color,
  font,
  name,
  horizontalLogo,
  squareLogo,
}: {
  color: string;
  font: string;
  name: string;
  horizontalLogo: string | undefined;
  squareLogo: string | undefined;
}) {
  const { t } = useTranslation('tenants');
  const base = isHexColor(color) ? color : TENANT_SETTING_DEFAULTS.COLOR;
  const shades = generateShades(base);
  const fontFamily = fontStack(font);

  return (
    <Paper withBorder radius="md" style={{ overflow: 'hidden', fontFamily }} data-testid="brand-preview">
      <Group
        h={52}
        px="md"
        justify="space-between"
        bg="white"
        style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}
      >
        <Group gap="sm" wrap="nowrap">
          {horizontalLogo ? (
            <Image src={horizontalLogo} alt={name} h={32} w="auto" maw={180} fit="contain" />
          ) : (
            <>
              {squareLogo ? (
                <Image src={squareLogo} alt="" h={28} w={28} fit="contain" />
              ) : (
                <PulseIcon width={22} height={22} color={base} />
              )}
              <Text fw={700} style={{ fontFamily }}>
                {name}
              </Text>
            </>
          )}
        </Group>
        <Box w={28} h={28} style={{ borderRadius: '50%', background: shades?.[1] ?? base }} />
      </Group>
      <Stack gap="sm" p="md" bg="gray.0">
        <Text fw={650} fz="lg" style={{ fontFamily }}>
          {t('branding.previewHeading')}
        </Text>
        <Text fz="sm" style={{ fontFamily }}>
          {t('branding.previewText')}{' '}
          <Anchor component="span" c={base} fz="sm" style={{ fontFamily }}>
            {t('branding.previewLink')}
          </Anchor>
        </Text>
        <Group gap="sm">
          <Button
            component="span"
            color={base}
            autoContrast
            style={{ fontFamily }}
            data-testid="preview-button"
          >
            {t('branding.previewButton')}
          </Button>
          <Button component="span" variant="light" color={base} style={{ fontFamily }}>
            {t('branding.previewSecondary')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
