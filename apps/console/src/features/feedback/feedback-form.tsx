import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, CloseButton, FileButton, Group, Image, Paper, Select, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  checkFeedbackImage,
  FEEDBACK_CATEGORIES,
  FEEDBACK_DESCRIPTION_MAX,
  FEEDBACK_IMAGE_ACCEPT,
  FEEDBACK_MAX_IMAGES,
  FEEDBACK_SUGGESTION_MAX,
  FEEDBACK_TYPES,
  type FeedbackCategory,
  type FeedbackImageProblem,
  type FeedbackType,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText, notifySuccess } from '../../lib/notify';
import { ConfirmDialog } from '../shell/confirm-dialog';
import { refreshFeedback, sendFeedback } from './feedback-api';

interface Draft {
  type: FeedbackType | null;
  category: FeedbackCategory | null;
  description: string;
  suggestion: string;
  images: File[];
}
const EMPTY: Draft = { type: null, category: null, description: '', suggestion: '', images: [] };
const hasInput = (draft: Draft) => draft.description.trim() !== '' || draft.suggestion.trim() !== '' || draft.images.length > 0;

/** A chosen image's preview, released when it leaves the form. */
function Preview({ file, onRemove, removeLabel }: { file: File; onRemove: () => void; removeLabel: string }) {
  const url = useMemo(() => URL.createObjectURL(file), [file]);
  useEffect(() => () => {
    URL.revokeObjectURL(url);
  }, [url]);
  return (
    <Paper withBorder p={4} pos="relative" data-testid="feedback-preview">
      <Image src={url} alt={file.name} h={96} fit="contain" />
      <Text fz="xs" truncate>
        {file.name}
      </Text>
      <CloseButton pos="absolute" top={4} right={4} size="sm" aria-label={removeLabel} onClick={onRemove} />
    </Paper>
  );
}

/**
 * The feedback form (spec §2 feedback form; §3 Feedback; §5): type, category, description,
 * suggestion and up to five images checked here by size and first bytes (the server checks again).
 * Changing the type once something is written asks first, then clears what was written.
 */
export function FeedbackForm() {
  const { t } = useTranslation('account');
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [pendingType, setPendingType] = useState<FeedbackType | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [isSubmitted, setSubmitted] = useState(false);
  const send = useMutation({
    mutationFn: () => {
      if (draft.type === null || draft.category === null) throw new Error('incomplete form');
      return sendFeedback({ type: draft.type, category: draft.category, description: draft.description, suggestion: draft.suggestion }, draft.images);
    },
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      setDraft(EMPTY);
      setSubmitted(false);
      setProblems([]);
      refreshFeedback(queryClient);
      notifySuccess(t('feedback.form.sent'));
    },
  });

  const errors = {
    type: isSubmitted && draft.type === null ? t('feedback.form.typeRequired') : null,
    category: isSubmitted && draft.category === null ? t('feedback.form.categoryRequired') : null,
    description: isSubmitted && draft.description.trim() === '' ? t('feedback.form.descriptionRequired') : null,
  };

  const onType = (value: string | null) => {
    const type = FEEDBACK_TYPES.find((candidate) => candidate === value) ?? null;
    if (type === null || type === draft.type) return;
    if (draft.type !== null && hasInput(draft)) setPendingType(type);
    else setDraft((current) => ({ ...current, type }));
  };

  const onFiles = async (files: File[]) => {
    const found: string[] = [];
    const accepted: File[] = [];
    for (const file of files) {
      const problem: FeedbackImageProblem | null = await checkFeedbackImage(file);
      if (problem !== null) found.push(t(`feedback.form.image.${problem}`, { name: file.name }));
      else accepted.push(file);
    }
    const room = FEEDBACK_MAX_IMAGES - draft.images.length;
    if (accepted.length > room) found.push(t('feedback.form.image.tooMany', { count: FEEDBACK_MAX_IMAGES }));
    setProblems(found);
    setDraft((current) => ({ ...current, images: [...current.images, ...accepted.slice(0, Math.max(0, room))] }));
  };

  return (
    <Paper withBorder radius="md" p="lg" maw={720}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(true);
          if (draft.type !== null && draft.category !== null && draft.description.trim() !== '') send.mutate();
        }}
        data-testid="feedback-form"
      >
        <Stack gap="md">
          <Text c="dimmed" fz="sm">
            {t('feedback.form.intro')}
          </Text>
          <Group grow align="flex-start">
            <Select
              label={t('feedback.fields.type')}
              placeholder={t('feedback.form.choose')}
              data={FEEDBACK_TYPES.map((type) => ({ value: type, label: t(`feedback.types.${type}`) }))}
              value={draft.type}
              onChange={onType}
              error={errors.type}
              required
              data-testid="feedback-type"
            />
            <Select
              label={t('feedback.fields.category')}
              placeholder={t('feedback.form.choose')}
              data={FEEDBACK_CATEGORIES.map((category) => ({ value: category, label: t(`feedback.categories.${category}`) }))}
              value={draft.category}
              onChange={(value) => {
                setDraft((current) => ({ ...current, category: FEEDBACK_CATEGORIES.find((candidate) => candidate === value) ?? null }));
              }}
              error={errors.category}
              required
              data-testid="feedback-category"
            />
          </Group>
          <Textarea
            label={t('feedback.fields.description')}
            value={draft.description}
            onChange={(event) => {
              const description = event.currentTarget.value;
              setDraft((current) => ({ ...current, description }));
            }}
            maxLength={FEEDBACK_DESCRIPTION_MAX}
            autosize
            minRows={4}
            required
            error={errors.description}
            data-testid="feedback-description"
          />
          <Textarea
            label={t('feedback.fields.suggestion')}
            value={draft.suggestion}
            onChange={(event) => {
              const suggestion = event.currentTarget.value;
              setDraft((current) => ({ ...current, suggestion }));
            }}
            maxLength={FEEDBACK_SUGGESTION_MAX}
            autosize
            minRows={2}
            data-testid="feedback-suggestion"
          />
          <Stack gap={6}>
            <Group gap="sm">
              <FileButton onChange={(files) => void onFiles(files)} accept={FEEDBACK_IMAGE_ACCEPT} multiple>
                {(props) => (
                  <Button {...props} variant="light" disabled={draft.images.length >= FEEDBACK_MAX_IMAGES} data-testid="feedback-add-images">
                    {t('feedback.form.addImages')}
                  </Button>
                )}
              </FileButton>
              <Text fz="xs" c="dimmed">
                {t('feedback.form.imageHint', { count: FEEDBACK_MAX_IMAGES })}
              </Text>
            </Group>
            {problems.length > 0 ? (
              <Alert color="red" variant="light" role="alert" data-testid="feedback-image-problems">
                {problems.map((problem) => (
                  <Text key={problem} fz="sm">
                    {problem}
                  </Text>
                ))}
              </Alert>
            ) : null}
            {draft.images.length > 0 ? (
              <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="xs">
                {draft.images.map((file, index) => (
                  <Preview
                    key={`${file.name}-${String(index)}`}
                    file={file}
                    removeLabel={t('feedback.form.removeImage', { name: file.name })}
                    onRemove={() => {
                      setDraft((current) => ({ ...current, images: current.images.filter((_, position) => position !== index) }));
                    }}
                  />
                ))}
              </SimpleGrid>
            ) : null}
          </Stack>
          {send.isError ? (
            <Alert color="red" variant="light" role="alert" title={t('feedback.form.failed')} data-testid="feedback-send-error">
              {messageText(errorMessageFor(send.error))}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button type="submit" loading={send.isPending} data-testid="feedback-submit">
              {t('feedback.form.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
      <ConfirmDialog
        isOpen={pendingType !== null}
        title={t('feedback.form.changeTypeTitle')}
        text={t('feedback.form.changeTypeText')}
        confirmLabel={t('feedback.form.changeTypeConfirm')}
        confirmColor="red"
        isPending={false}
        error={null}
        onConfirm={() => {
          setDraft({ ...EMPTY, type: pendingType, category: draft.category });
          setProblems([]);
          setPendingType(null);
        }}
        onClose={() => {
          setPendingType(null);
        }}
      />
    </Paper>
  );
}
