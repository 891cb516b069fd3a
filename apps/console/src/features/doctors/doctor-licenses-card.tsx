import { useState, type ReactNode, type SubmitEvent } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  FileInput,
  Group,
  Image,
  Modal,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  LICENSE_IMAGE_MAX_BYTES,
  LICENSE_IMAGE_TYPES,
  daysUntilExpiry,
  isExpiringSoon,
  doctorLicenseFieldsSchema,
  type DoctorLicense,
  type DoctorProfile,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { displayDateForSchema, toDisplayDate } from '../../lib/format';
import { messageText, notifyError, notifySuccess } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';
import { DateField } from '../shell/date-field';
import { Can } from '../shell/permissions';
import {
  addLicense,
  addOwnLicense,
  licenseImagePath,
  ownLicenseImagePath,
  refreshDoctors,
  removeLicense,
  removeOwnLicense,
} from './doctors-api';
import { licenseToday } from './license-today';

/** The license calls of an admin (for the doctor shown) or of the signed-in doctor (their own). */
function licenseCallsOf(doctorId: string, isOwn: boolean) {
  return isOwn
    ? {
        add: addOwnLicense,
        remove: removeOwnLicense,
        imagePath: ownLicenseImagePath,
      }
    : {
        add: (input: { name: string; expiresOn: string; image: File }) => addLicense(doctorId, input),
        remove: (licenseId: string) => removeLicense(doctorId, licenseId),
        imagePath: (licenseId: string) => licenseImagePath(doctorId, licenseId),
      };
}
type LicenseCalls = ReturnType<typeof licenseCallsOf>;

/** How far a license is from its last valid day: expired, or expires in N days. */
export function LicenseExpiry({ license }: { license: DoctorLicense }) {
  const { t } = useTranslation('doctors');
  const today = licenseToday();
  if (license.expired)
    return (
      <Badge color="red" tt="none">
        {t('licenses.expired')}
      </Badge>
    );
  const days = daysUntilExpiry(license.expiresOn, today);
  return (
    <Badge color={isExpiringSoon(license.expiresOn, today) ? 'orange' : 'gray'} variant="light" tt="none">
      {t('licenses.expiresIn', { count: days })}
    </Badge>
  );
}

interface LicenseValues {
  name: string;
  expiresOn: string;
  image: File | null;
}

function AddLicenseForm({ calls, onClose }: { calls: LicenseCalls; onClose: () => void }) {
  const { t } = useTranslation('doctors');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const form = useFormState<LicenseValues>({ name: '', expiresOn: '', image: null });
  const mutation = useMutation({
    mutationFn: (input: { name: string; expiresOn: string; image: File }) => calls.add(input),
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      notifySuccess(t('licenses.added'));
      refreshDoctors(queryClient);
      onClose();
    },
    onError: (error) => {
      form.showServerErrors(error);
    },
  });
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = form.validate(doctorLicenseFieldsSchema, {
      name: form.values.name,
      expiresOn: displayDateForSchema(form.values.expiresOn),
    });
    if (parsed === null) return;
    const { image } = form.values;
    if (image === null) {
      form.setMessage('image', { key: 'form.required' });
      return;
    }
    if (image.size > LICENSE_IMAGE_MAX_BYTES) {
      form.setMessage('image', { key: 'doctors:licenses.imageTooLarge' });
      return;
    }
    if (!mutation.isPending) mutation.mutate({ ...parsed, image });
  };
  return (
    <form ref={form.formRef} onSubmit={onSubmit} noValidate aria-label={t('licenses.addTitle')}>
      <Stack gap="md">
        {mutation.isError ? (
          <Alert color="red" variant="light" role="alert">
            {messageText(errorMessageFor(mutation.error))}
          </Alert>
        ) : null}
        <TextInput
          label={t('licenses.name')}
          value={form.values.name}
          onChange={(event) => {
            form.setField('name', event.currentTarget.value);
          }}
          error={form.errorOf('name')}
          withAsterisk
          maxLength={120}
          data-autofocus
        />
        <DateField
          label={t('licenses.expiresOn')}
          value={form.values.expiresOn}
          error={form.errorOf('expiresOn')}
          onChange={(value) => {
            form.setField('expiresOn', value);
          }}
          isRequired
        />
        <FileInput
          label={t('licenses.image')}
          description={t('licenses.imageHint')}
          accept={LICENSE_IMAGE_TYPES.join(',')}
          value={form.values.image}
          onChange={(file) => {
            form.setField('image', file);
          }}
          error={form.errorOf('image')}
          clearable
          withAsterisk
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {tc('actions.cancel')}
          </Button>
          <Button type="submit" loading={mutation.isPending}>
            {t('licenses.add')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Shown to admins holding staff.update, or always on the doctor's own page. */
function Manage({ isOwn, children }: { isOwn: boolean; children: ReactNode }) {
  return isOwn ? children : <Can permission="staff.update">{children}</Can>;
}

/**
 * The doctor's medical licenses with expiry (expired, or expires in N days) and the image; admins
 * add and remove, and so does the doctor on its own page (`isOwn`).
 */
export function DoctorLicensesCard({ doctor, isOwn = false }: { doctor: DoctorProfile; isOwn?: boolean }) {
  const calls = licenseCallsOf(doctor.id, isOwn);
  const { t } = useTranslation('doctors');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const [isAdding, setIsAdding] = useState(false);
  const [preview, setPreview] = useState<DoctorLicense | null>(null);
  const [removing, setRemoving] = useState<DoctorLicense | null>(null);
  const remove = useMutation({
    mutationFn: (licenseId: string) => calls.remove(licenseId),
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      notifySuccess(t('licenses.removed'));
      refreshDoctors(queryClient);
      setRemoving(null);
    },
    onError: (error) => {
      notifyError(error);
    },
  });
  return (
    <Paper withBorder radius="md" p="lg">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2} fz="lg">
            {t('licenses.title')}
          </Title>
          <Manage isOwn={isOwn}>
            <Button
              variant="light"
              size="xs"
              onClick={() => {
                setIsAdding(true);
              }}
            >
              {t('licenses.add')}
            </Button>
          </Manage>
        </Group>
        {doctor.licenses.length === 0 ? (
          <Text c="dimmed" fz="sm">
            {t('licenses.none')}
          </Text>
        ) : (
          <Table verticalSpacing="xs" aria-label={t('licenses.title')} data-testid="licenses-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('licenses.name')}</Table.Th>
                <Table.Th>{t('licenses.expiresOn')}</Table.Th>
                <Table.Th>{t('licenses.image')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {doctor.licenses.map((license) => (
                <Table.Tr key={license.id}>
                  <Table.Td>{license.name}</Table.Td>
                  <Table.Td>
                    <Group gap="xs">
                      <Text fz="sm">{toDisplayDate(license.expiresOn)}</Text>
                      <LicenseExpiry license={license} />
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    {license.hasImage ? (
                      <Anchor
                        component="button"
                        type="button"
                        fz="sm"
                        onClick={() => {
                          setPreview(license);
                        }}
                      >
                        {t('licenses.viewImage')}
                      </Anchor>
                    ) : (
                      <Text c="dimmed">—</Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Manage isOwn={isOwn}>
                      <Button
                        variant="subtle"
                        color="red"
                        size="xs"
                        onClick={() => {
                          setRemoving(license);
                        }}
                        aria-label={t('licenses.removeLabel', { name: license.name })}
                      >
                        {tc('actions.delete')}
                      </Button>
                    </Manage>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
      <Modal
        opened={isAdding}
        onClose={() => {
          setIsAdding(false);
        }}
        title={t('licenses.addTitle')}
        centered
      >
        {isAdding ? (
          <AddLicenseForm
            calls={calls}
            onClose={() => {
              setIsAdding(false);
            }}
          />
        ) : null}
      </Modal>
      <Modal
        opened={preview !== null}
        onClose={() => {
          setPreview(null);
        }}
        title={preview?.name ?? ''}
        size="lg"
        centered
      >
        {preview ? (
          <Image
            src={calls.imagePath(preview.id)}
            alt={t('licenses.imageAlt', { name: preview.name })}
            fit="contain"
            mah={520}
          />
        ) : null}
      </Modal>
      <Modal
        opened={removing !== null}
        onClose={() => {
          setRemoving(null);
        }}
        title={t('licenses.removeTitle')}
        centered
      >
        <Stack gap="md">
          <Text>{t('licenses.removeText', { name: removing?.name ?? '' })}</Text>
          <Group justify="flex-end">
            <Button
              variant="default"
              onClick={() => {
                setRemoving(null);
              }}
            >
              {tc('actions.cancel')}
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() => {
                if (removing) remove.mutate(removing.id);
              }}
            >
              {tc('actions.delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
