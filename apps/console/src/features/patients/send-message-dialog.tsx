import { Alert, Button, Checkbox, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { notificationSendAnswerSchema, notificationSendSchema, type PatientDetail } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText, notifySuccess } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';

interface MessageValues {
  title: string;
  body: string;
  force: boolean;
}
const EMPTY: MessageValues = { title: '', body: '', force: false };

/**
 * "Send a message" to a patient (spec §7 notification/send): it reaches the patient's app (or the
 * holder of a sub-user) as a notice, live, and as a push where turned on. A mandatory one stays on
 * the patient's screen until read.
 */
export function SendMessageDialog({ patient, opened, onClose }: { patient: PatientDetail; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('patients');
  const form = useFormState<MessageValues>(EMPTY);
  const send = useMutation({
    mutationFn: (input: MessageValues) =>
      api.post('/collector/notification/send', { patientIds: [patient.id], ...input }, { schema: notificationSendAnswerSchema }),
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      notifySuccess(t('message_dialog.sent', { name: patient.fullName }));
      close();
    },
    onError: (error) => {
      form.showServerErrors(error);
    },
  });
  function close() {
    form.setValues(EMPTY);
    form.clearMessages();
    send.reset();
    onClose();
  }
  return (
    <Modal opened={opened} onClose={close} title={t('message_dialog.title', { name: patient.fullName })} centered>
      <form
        ref={form.formRef}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const input = form.validate(notificationSendSchema, { patientIds: [patient.id], ...form.values });
          if (input && !send.isPending) send.mutate({ title: input.title, body: input.body, force: input.force });
        }}
      >
        <Stack gap="md">
          <TextInput
            label={t('message_dialog.subject')}
            value={form.values.title}
            onChange={(event) => {
              form.setField('title', event.currentTarget.value);
            }}
            error={form.errorOf('title')}
            maxLength={120}
            withAsterisk
          />
          <Textarea
            label={t('message_dialog.body')}
            value={form.values.body}
            onChange={(event) => {
              form.setField('body', event.currentTarget.value);
            }}
            error={form.errorOf('body')}
            autosize
            minRows={4}
            maxLength={2000}
            withAsterisk
          />
          <Checkbox
            label={t('message_dialog.force')}
            description={t('message_dialog.forceHint')}
            checked={form.values.force}
            onChange={(event) => {
              form.setField('force', event.currentTarget.checked);
            }}
          />
          {send.isError && Object.keys(form.messages).length === 0 ? (
            <Alert color="red" variant="light" role="alert">
              {messageText(errorMessageFor(send.error))}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('message_dialog.cancel')}
            </Button>
            <Button type="submit" loading={send.isPending}>
              {t('message_dialog.send')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
