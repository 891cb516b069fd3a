import { useEffect, useState } from 'react';
import { Avatar, FileInput, Group, Stack, Text } from '@mantine/core';
import { CENTER_LOGO_MAX_BYTES, CENTER_LOGO_TYPES } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { BuildingIcon, UploadIcon } from './org-icons';

/** Why a chosen logo cannot be sent, checked before the upload (the server checks again, by content). */
export function logoProblem(file: File): 'logoType' | 'logoSize' | null {
  if (!(CENTER_LOGO_TYPES as readonly string[]).includes(file.type)) return 'logoType';
  if (file.size > CENTER_LOGO_MAX_BYTES) return 'logoSize';
  return null;
}

/** A preview address for a chosen file, released when it changes (object URLs hold memory). */
function usePreview(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setUrl(null);
      return;
    }
    const created = URL.createObjectURL(file);
    setUrl(created);
    return () => {
      URL.revokeObjectURL(created);
    };
  }, [file]);
  return url;
}

/** The center's logo: the current one or the chosen file's preview, and the file input (PNG, JPEG, WEBP, ≤ 1 MB). */
export function CenterLogoField({
  file,
  currentUrl,
  error,
  onChange,
}: {
  file: File | null;
  currentUrl: string | null;
  error: string | undefined;
  onChange: (file: File | null) => void;
}) {
  const { t } = useTranslation('org');
  const preview = usePreview(file);
  const shown = preview ?? currentUrl;
  return (
    <Group align="flex-start" gap="lg" wrap="nowrap">
      <Avatar src={shown} size={72} radius="md" alt={shown ? t('centers.form.logoPreview') : undefined}>
        <BuildingIcon width={30} height={30} />
      </Avatar>
      <Stack gap={4} style={{ flex: 1 }}>
        <FileInput
          label={t('centers.form.logo')}
          description={t('centers.form.logoHint')}
          placeholder={t('centers.form.logoPlaceholder')}
          accept={CENTER_LOGO_TYPES.join(',')}
          leftSection={<UploadIcon width={16} height={16} />}
          value={file}
          onChange={onChange}
          error={error}
          clearable
        />
        {file ? (
          <Text fz="xs" c="dimmed">
            {t('centers.form.logoChosen', { size: Math.ceil(file.size / 1024) })}
          </Text>
        ) : null}
      </Stack>
    </Group>
  );
}
