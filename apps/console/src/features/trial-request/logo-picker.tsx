import { useEffect, useState } from 'react';
import { Center, FileInput, Group, Image, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { UploadIcon } from '../tenants/tenant-icons';

/** The picked file as an image address for the preview, released when the file changes. */
function usePreviewUrl(file: File | null): string | null {
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

/**
 * One required logo of the trial request: a file field (PNG only) with a preview, in a frame
 * shaped like where the logo is used. The checks run where the file is chosen (see the form).
 */
export function LogoPicker({
  label,
  description,
  value,
  onChange,
  error,
  frame,
}: {
  label: string;
  description: string;
  value: File | null;
  onChange: (file: File | null) => void;
  error: string | undefined;
  frame: { width: number; height: number };
}) {
  const { t } = useTranslation('tenants');
  const preview = usePreviewUrl(error ? null : value);
  return (
    <Group align="flex-start" wrap="nowrap" gap="md">
      <FileInput
        flex={1}
        label={label}
        description={description}
        placeholder={t('trial.choosePng')}
        accept="image/png"
        value={value}
        onChange={onChange}
        error={error}
        withAsterisk
        clearable
        clearButtonProps={{ 'aria-label': t('trial.clearLogo') }}
        leftSection={<UploadIcon width={16} height={16} />}
      />
      <Center
        w={frame.width}
        h={frame.height}
        mt={22}
        bg="gray.0"
        style={{ flex: 'none', border: '1px dashed var(--mantine-color-gray-4)', borderRadius: 8 }}
      >
        {preview ? (
          <Image
            src={preview}
            alt={t('trial.previewOf', { label })}
            fit="contain"
            w={frame.width - 8}
            h={frame.height - 8}
          />
        ) : (
          <Text fz="xs" c="dimmed">
            {t('trial.noFile')}
          </Text>
        )}
      </Center>
    </Group>
  );
}
