import { useState } from 'react';
import { Alert, Button, Group, Modal, Select, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CODE_PACKAGE_MAX_CODES, CODE_PACKAGE_TYPES, type CodePackageInput } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessageFor } from '../../api/error-reaction';
import { formatNumber } from '../../lib/format';
import {
  fieldMessageText,
  fieldOfError,
  isFormLevelError,
  serverFieldMessages,
  type FieldMessages,
} from '../../lib/form-errors';
import { messageText } from '../../lib/notify';
import { AlertIcon } from '../shell/icons';
import { DateField } from '../shell/date-field';
import {
  codePackageInputOf,
  emptyCodePackageValues,
  typedPrefix,
  type CodePackageFormValues,
} from './code-package-form-values';
import { generateCodePackage, refreshCodePackages, saveFile, type GeneratedCodes } from './code-packages-api';
import { enabledPackagesQuery } from './packages-api';

/** The API's refusals that belong to one field. */
const FIELD_OF_CODE = {
  'codePackage.prefixExists': 'prefix',
  'package.disabled': 'packageId',
  'package.notFound': 'packageId',
} as const;

/** What was generated: the file held in memory while the dialog is open, to save it again. */
interface Generated extends GeneratedCodes {
  input: CodePackageInput;
}

/**
 * Generates a code package (spec §2, §3 Code package; §5 every field required): the form checks
 * every field with the API's own schema and says what is wrong under each, the server's refusals
 * included (a taken series prefix). The answer is the spreadsheet of the new codes, downloaded at
 * once; the dialog then says the codes are shown only this once and keeps the file, for saving
 * again, only until it is closed.
 */
export function CodePackageDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('packages');
  const queryClient = useQueryClient();
  const [values, setValues] = useState<CodePackageFormValues>(emptyCodePackageValues);
  const [errors, setErrors] = useState<FieldMessages>({});
  const [generated, setGenerated] = useState<Generated | null>(null);
  const packages = useQuery(enabledPackagesQuery());
  const generate = useMutation({
    mutationFn: async (input: CodePackageInput) => ({ ...(await generateCodePackage(input)), input }),
    meta: { errorDisplay: 'inline' },
    onSuccess: async (result) => {
      saveFile(result.file, result.fileName);
      setGenerated(result);
      await refreshCodePackages(queryClient);
    },
    onError: (error) => {
      const messages = serverFieldMessages(error);
      const field = fieldOfError(error, FIELD_OF_CODE);
      if (field !== undefined) messages[field] = { text: messageText(errorMessageFor(error)) };
      setErrors(messages);
    },
  });
  const set = <K extends keyof CodePackageFormValues>(key: K, value: CodePackageFormValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
  };
  const submit = () => {
    const result = codePackageInputOf(values);
    if (result.messages) {
      setErrors(result.messages);
      return;
    }
    setErrors({});
    generate.mutate(result.input);
  };
  const errorOf = (field: keyof CodePackageFormValues) => fieldMessageText(errors[field]);
  const offer = (packages.data?.items ?? []).filter((item) => item.kind === values.type);

  if (generated !== null) {
    return (
      <Modal
        opened={opened}
        onClose={onClose}
        title={t('codes.done.title')}
        centered
        size="lg"
        // The file is the only copy of the codes: a stray click beside the window must not drop it.
        closeOnClickOutside={false}
      >
        <Stack gap="md" data-testid="code-package-generated">
          <Text>
            {t('codes.done.text', {
              count: generated.input.totalCodes,
              name: generated.input.name,
              file: generated.fileName,
            })}
          </Text>
          <Alert color="orange" variant="light" icon={<AlertIcon />} role="alert">
            {t('codes.done.once')}
          </Alert>
          <Group justify="space-between">
            <Button
              variant="default"
              onClick={() => {
                saveFile(generated.file, generated.fileName);
              }}
            >
              {t('codes.done.again')}
            </Button>
            <Group gap="sm">
              <Button variant="default" onClick={onClose}>
                {t('codes.actions.close')}
              </Button>
              <Button component={Link} to={generated.codePackageId}>
                {t('codes.done.open')}
              </Button>
            </Group>
          </Group>
        </Stack>
      </Modal>
    );
  }

  const packageDescription =
    values.type !== null && packages.isSuccess && offer.length === 0 ? t('codes.form.noPackages') : undefined;
  return (
    <Modal opened={opened} onClose={onClose} title={t('codes.form.title')} centered size="xl">
      <form
        noValidate
        data-testid="code-package-form"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="md">
          <Alert color="blue" variant="light">
            {t('codes.form.onceNotice')}
          </Alert>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('codes.form.name')}
              value={values.name}
              onChange={(event) => {
                set('name', event.currentTarget.value);
              }}
              error={errorOf('name')}
              maxLength={120}
              withAsterisk
              data-autofocus
            />
            <TextInput
              label={t('codes.form.recipientOrganization')}
              value={values.recipientOrganization}
              onChange={(event) => {
                set('recipientOrganization', event.currentTarget.value);
              }}
              error={errorOf('recipientOrganization')}
              maxLength={200}
              withAsterisk
            />
            <Select
              label={t('codes.form.type')}
              placeholder={t('codes.form.typePlaceholder')}
              data={CODE_PACKAGE_TYPES.map((type) => ({ value: type, label: t(`kind.${type}`) }))}
              value={values.type}
              onChange={(value) => {
                const type = CODE_PACKAGE_TYPES.find((option) => option === value) ?? null;
                setValues((current) => {
                  // A package of the other type no longer fits.
                  const chosen = packages.data?.items.find((item) => item.id === current.packageId);
                  return { ...current, type, packageId: chosen?.kind === type ? current.packageId : null };
                });
              }}
              allowDeselect={false}
              error={errorOf('type')}
              withAsterisk
            />
            <Select
              label={t('codes.form.packageId')}
              placeholder={values.type === null ? t('codes.form.packageNeedsType') : t('codes.form.packagePlaceholder')}
              description={packageDescription}
              data={offer.map((item) => ({ value: item.id, label: `${item.name} (${item.code})` }))}
              value={values.packageId}
              onChange={(value) => {
                set('packageId', value);
              }}
              disabled={values.type === null}
              searchable
              nothingFoundMessage={t('codes.form.noPackages')}
              error={
                errorOf('packageId') ??
                (packages.isError ? messageText(errorMessageFor(packages.error, 'packages:codes.form.packagesFailed')) : undefined)
              }
              withAsterisk
            />
            <TextInput
              label={t('codes.form.prefix')}
              description={t('codes.form.prefixHint')}
              value={values.prefix}
              onChange={(event) => {
                set('prefix', typedPrefix(event.currentTarget.value));
              }}
              error={errorOf('prefix')}
              maxLength={8}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              autoComplete="off"
              withAsterisk
            />
            <TextInput
              label={t('codes.form.totalCodes')}
              description={t('codes.form.totalCodesHint', { maximum: formatNumber(CODE_PACKAGE_MAX_CODES) })}
              value={values.totalCodes}
              inputMode="numeric"
              onChange={(event) => {
                set('totalCodes', event.currentTarget.value);
              }}
              error={errorOf('totalCodes')}
              maxLength={6}
              withAsterisk
            />
            <DateField
              label={t('codes.form.availableFrom')}
              value={values.availableFrom}
              onChange={(value) => {
                set('availableFrom', value);
              }}
              error={errorOf('availableFrom')}
              isRequired
            />
            <DateField
              label={t('codes.form.expiresOn')}
              value={values.expiresOn}
              onChange={(value) => {
                set('expiresOn', value);
              }}
              error={errorOf('expiresOn')}
              isRequired
            />
          </SimpleGrid>
          <Textarea
            label={t('codes.form.purpose')}
            value={values.purpose}
            onChange={(event) => {
              set('purpose', event.currentTarget.value);
            }}
            error={errorOf('purpose')}
            autosize
            minRows={2}
            maxLength={500}
            withAsterisk
          />
          <Textarea
            label={t('codes.form.benefit')}
            value={values.benefit}
            onChange={(event) => {
              set('benefit', event.currentTarget.value);
            }}
            error={errorOf('benefit')}
            autosize
            minRows={2}
            maxLength={500}
            withAsterisk
          />
          {isFormLevelError(generate.error, FIELD_OF_CODE) ? (
            <Alert color="red" variant="light" role="alert">
              {messageText(errorMessageFor(generate.error))}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('codes.actions.cancel')}
            </Button>
            <Button type="submit" loading={generate.isPending}>
              {t('codes.form.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
