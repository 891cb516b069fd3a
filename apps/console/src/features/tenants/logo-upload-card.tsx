import { useState } from 'react';
import { Alert, Button, Center, FileButton, Image, Paper, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import type { TenantDetail, TenantLogoKind } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText, notifySuccess } from '../../lib/notify';
import { usePermissions } from '../shell/permissions';
import { acceptAttribute, logoProblem, type LogoAccept, type LogoProblem } from './logo-file';
import { UploadIcon } from './tenant-icons';
import { uploadTenantLogo } from './tenants-api';
import { useTenantSaved } from './use-tenant-saved';

const ACCEPT_OF_KIND: Record<TenantLogoKind, LogoAccept> = {
  square: 'png',
  horizontal: 'png',
  qr: 'pngOrJpeg',
};
/** Frames shaped like where each image is used: a square icon, a header bar, a printed QR code. */
const FRAME_OF_KIND: Record<TenantLogoKind, { width: number; height: number }> = {
  square: { width: 120, height: 120 },
  horizontal: { width: 280, height: 80 },
  qr: { width: 120, height: 120 },
};

/** One branding image: what is stored now, and a checked upload that replaces it. */
export function LogoUploadCard({ tenant, kind }: { tenant: TenantDetail; kind: TenantLogoKind }) {
  const { t } = useTranslation('tenants');
  const { can } = usePermissions();
  const saved = useTenantSaved();
  const [problem, setProblem] = useState<LogoProblem | null>(null);
  // The public image call answers only for active tenants; an inactive one shows the placeholder.
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const url = tenant.logos[kind];
  const frame = FRAME_OF_KIND[kind];

  const upload = useMutation({
    mutationFn: (file: File) => uploadTenantLogo(tenant.id, kind, file),
    meta: { errorDisplay: 'inline' },
    onSuccess: (detail) => {
      saved(detail);
      notifySuccess(t('branding.logoSaved', { kind: t(`branding.kinds.${kind}`) }));
    },
  });

  const onFile = async (file: File | null) => {
    if (!file) return;
    upload.reset();
    const found = await logoProblem(file, ACCEPT_OF_KIND[kind]);
    setProblem(found);
    if (!found) upload.mutate(file);
  };

  return (
    <Paper withBorder radius="md" p="md" data-testid={`logo-${kind}`}>
      <Stack gap="sm" align="center">
        <Text fw={600} fz="sm">
          {t(`branding.kinds.${kind}`)}
        </Text>
        <Center
          w={frame.width}
          h={frame.height}
          bg="gray.0"
          style={{
            border: '1px dashed var(--mantine-color-gray-4)',
            borderRadius: 'var(--mantine-radius-sm)',
          }}
        >
          {url && failedUrl !== url ? (
            <Image
              src={url}
              alt={t('branding.logoAlt', { kind: t(`branding.kinds.${kind}`), name: tenant.name })}
              fit="contain"
              w={frame.width - 8}
              h={frame.height - 8}
              onError={() => {
                setFailedUrl(url);
              }}
            />
          ) : (
            <Text fz="xs" c="dimmed" ta="center" px="xs">
              {url ? t('branding.previewUnavailable') : t('branding.noImage')}
            </Text>
          )}
        </Center>
        <Text fz="xs" c="dimmed" ta="center">
          {t(kind === 'qr' ? 'branding.qrHint' : 'branding.logoHint')}
        </Text>
        {can('tenant.update') ? (
          <FileButton onChange={(file) => void onFile(file)} accept={acceptAttribute(ACCEPT_OF_KIND[kind])}>
            {(props) => (
              <Button
                {...props}
                variant="light"
                size="xs"
                leftSection={<UploadIcon width={14} height={14} />}
                loading={upload.isPending}
                aria-label={t('branding.uploadKind', { kind: t(`branding.kinds.${kind}`) })}
              >
                {url ? t('branding.replace') : t('branding.upload')}
              </Button>
            )}
          </FileButton>
        ) : null}
        {problem || upload.isError ? (
          <Alert color="red" variant="light" role="alert" w="100%" p="xs" data-testid={`logo-${kind}-error`}>
            {problem ? t(`branding.problems.${problem}`) : messageText(errorMessageFor(upload.error))}
          </Alert>
        ) : null}
      </Stack>
    </Paper>
  );
}
