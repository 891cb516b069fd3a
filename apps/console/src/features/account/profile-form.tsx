import type { SubmitEvent } from 'react';
import {
  Alert,
  Button,
  Divider,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { BLOOD_TYPES, GENDERS, profileUpdateSchema, type Profile, type ProfileUpdate } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { displayDateForSchema, toDisplayDate } from '../../lib/format';
import { messageText, notifySuccess } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';
import { sessionQuery } from '../auth/auth-api';
import { DateField } from '../shell/date-field';
import { useSession } from '../shell/session-context';
import { profileQuery, updateProfile } from './account-api';

type Gender = (typeof GENDERS)[number];
type BloodType = (typeof BLOOD_TYPES)[number];
type AddressField = 'country' | 'province' | 'district' | 'ward' | 'line';
const ADDRESS_FIELDS: readonly AddressField[] = ['line', 'ward', 'district', 'province', 'country'];
const REQUIRED_ADDRESS: readonly AddressField[] = ['line', 'country'];

/** What the inputs hold: text as typed, numbers possibly empty, selects possibly unchosen. */
interface ProfileValues {
  firstName: string;
  middleName: string;
  lastName: string;
  nickName: string;
  gender: Gender | null;
  birthday: string;
  bloodType: BloodType | null;
  skinColor: string;
  heightCm: number | string;
  weightKg: number | string;
  address: Record<AddressField, string>;
  medicalNotes: string;
}

function valuesOf(profile: Profile): ProfileValues {
  return {
    firstName: profile.firstName,
    middleName: profile.middleName,
    lastName: profile.lastName,
    nickName: profile.nickName,
    gender: profile.gender,
    birthday: toDisplayDate(profile.birthday),
    bloodType: profile.bloodType,
    skinColor: profile.skinColor,
    heightCm: profile.heightCm ?? '',
    weightKg: profile.weightKg ?? '',
    address: { ...profile.address },
    medicalNotes: profile.medicalNotes,
  };
}

const numberOrNull = (value: number | string) => (typeof value === 'number' ? value : null);

/** Edits every field of PUT /account/me/profile; email and phone change through verification, so they are shown only. */
export function ProfileForm({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const session = useSession();
  const queryClient = useQueryClient();
  const form = useFormState<ProfileValues>(valuesOf(profile));
  const { values } = form;

  const save = useMutation({
    mutationFn: (body: ProfileUpdate) => updateProfile(body, session.user.role),
    meta: { errorDisplay: 'inline' },
    onSuccess: (updated) => {
      queryClient.setQueryData(profileQuery(session.user.userId).queryKey, updated);
      // The header shows the name from the session check; ask again so it shows the new one.
      void queryClient.invalidateQueries({ queryKey: sessionQuery().queryKey });
      notifySuccess(t('profile.saved'));
    },
    onError: (error) => {
      form.showServerErrors(error);
    },
  });

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = form.validate(profileUpdateSchema, {
      ...values,
      gender: values.gender ?? undefined,
      birthday: displayDateForSchema(values.birthday),
      heightCm: numberOrNull(values.heightCm),
      weightKg: numberOrNull(values.weightKg),
    });
    if (parsed && !save.isPending) save.mutate(parsed);
  };

  const text = (name: 'firstName' | 'middleName' | 'lastName' | 'nickName' | 'skinColor') => ({
    value: values[name],
    error: form.errorOf(name),
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
      form.setField(name, event.currentTarget.value);
    },
  });
  const setAddress = (name: AddressField, value: string) => {
    form.setValues((current) => ({ ...current, address: { ...current.address, [name]: value } }));
    form.clearMessage(`address.${name}`);
  };

  return (
    <form ref={form.formRef} onSubmit={onSubmit} noValidate aria-label={t('profile.formLabel')}>
      <Stack gap="md">
        {save.isError ? (
          <Alert color="red" variant="light" role="alert" title={t('profile.saveFailed')}>
            {messageText(errorMessageFor(save.error))}
          </Alert>
        ) : null}
        <SimpleGrid cols={2} spacing="md">
          <TextInput
            label={t('profile.email')}
            value={profile.email ?? ''}
            readOnly
            variant="filled"
            description={t('profile.contactHint')}
          />
          <TextInput
            label={t('profile.phone')}
            value={profile.phone ?? ''}
            readOnly
            variant="filled"
            description={t('profile.contactHint')}
          />
        </SimpleGrid>
        <Divider label={t('profile.sectionPerson')} labelPosition="left" />
        <SimpleGrid cols={2} spacing="md">
          <TextInput
            label={t('profile.firstName')}
            withAsterisk
            autoComplete="given-name"
            {...text('firstName')}
          />
          <TextInput label={t('profile.middleName')} autoComplete="additional-name" {...text('middleName')} />
          <TextInput
            label={t('profile.lastName')}
            withAsterisk
            autoComplete="family-name"
            {...text('lastName')}
          />
          <TextInput label={t('profile.nickName')} autoComplete="nickname" {...text('nickName')} />
          <Select
            label={t('profile.gender')}
            withAsterisk
            data={GENDERS.map((gender) => ({ value: gender, label: t(`profile.genders.${gender}`) }))}
            value={values.gender}
            onChange={(value) => {
              form.setField('gender', GENDERS.find((gender) => gender === value) ?? null);
            }}
            error={form.errorOf('gender')}
            allowDeselect={false}
          />
          <DateField
            label={t('profile.birthday')}
            value={values.birthday}
            error={form.errorOf('birthday')}
            onChange={(value) => {
              form.setField('birthday', value);
            }}
            isRequired
          />
        </SimpleGrid>
        <Divider label={t('profile.sectionBody')} labelPosition="left" />
        <SimpleGrid cols={4} spacing="md">
          <Select
            label={t('profile.bloodType')}
            data={[...BLOOD_TYPES]}
            value={values.bloodType}
            onChange={(value) => {
              form.setField('bloodType', BLOOD_TYPES.find((type) => type === value) ?? null);
            }}
            error={form.errorOf('bloodType')}
            clearable
          />
          <TextInput label={t('profile.skinColor')} {...text('skinColor')} />
          <NumberInput
            label={t('profile.heightCm')}
            value={values.heightCm}
            onChange={(value) => {
              form.setField('heightCm', value);
            }}
            error={form.errorOf('heightCm')}
            min={1}
            max={299}
            decimalScale={1}
          />
          <NumberInput
            label={t('profile.weightKg')}
            value={values.weightKg}
            onChange={(value) => {
              form.setField('weightKg', value);
            }}
            error={form.errorOf('weightKg')}
            min={2}
            max={699}
            decimalScale={1}
          />
        </SimpleGrid>
        <Divider label={t('profile.sectionAddress')} labelPosition="left" />
        <SimpleGrid cols={2} spacing="md">
          {ADDRESS_FIELDS.map((name) => (
            <TextInput
              key={name}
              label={t(`profile.address.${name}`)}
              withAsterisk={REQUIRED_ADDRESS.includes(name)}
              value={values.address[name]}
              onChange={(event) => {
                setAddress(name, event.currentTarget.value);
              }}
              error={form.errorOf(`address.${name}`)}
            />
          ))}
        </SimpleGrid>
        <Textarea
          label={t('profile.medicalNotes')}
          description={t('profile.medicalNotesHint')}
          autosize
          minRows={3}
          value={values.medicalNotes}
          onChange={(event) => {
            form.setField('medicalNotes', event.currentTarget.value);
          }}
          error={form.errorOf('medicalNotes')}
        />
        <Group justify="flex-end">
          <Button
            type="button"
            variant="default"
            onClick={() => {
              form.setValues(valuesOf(profile));
              form.clearMessages();
              save.reset();
            }}
          >
            {t('actions.reset')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
