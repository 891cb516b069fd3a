import { useMutation } from '@tanstack/react-query';
import { SOS_RECORDING_MAX_SECONDS } from '@rpm/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/error-message';
import { uploadRecording } from './alerts-api';
import { useRecorder } from './recorder';
import { newBatchId } from '../../lib/batch-id';

/**
 * The optional voice message after an SOS (spec §2 SOS recording): up to a minute with the
 * microphone, sent to the case as soon as it stops. A failed upload can be sent again (same id:
 * stored once).
 */
export function SosRecording({ sosCaseId }: { sosCaseId: string }) {
  const { t } = useTranslation('appAlerts');
  const recorder = useRecorder(SOS_RECORDING_MAX_SECONDS);
  const [uploadId] = useState(() => newBatchId());
  const upload = useMutation({ mutationFn: uploadRecording });
  const { state } = recorder;
  useEffect(() => {
    if (state.kind === 'done' && upload.isIdle)
      upload.mutate({ sosCaseId, uploadId, durationSeconds: state.seconds, audio: state.audio });
  }, [sosCaseId, state, upload, uploadId]);

  return (
    <section className="sos-recording" aria-labelledby="sos-recording-title">
      <h3 id="sos-recording-title">{t('recording.title')}</h3>
      {state.kind === 'idle' ? (
        <>
          <p className="hint">{t('recording.hint', { seconds: SOS_RECORDING_MAX_SECONDS })}</p>
          <button type="button" className="record-start" onClick={() => void recorder.start()}>
            {t('recording.start')}
          </button>
        </>
      ) : null}
      {state.kind === 'recording' ? (
        <>
          <p role="status" data-testid="recording-progress">
            {t('recording.recording', { elapsed: state.elapsed, max: SOS_RECORDING_MAX_SECONDS })}
          </p>
          <button type="button" className="record-stop" onClick={recorder.stop}>
            {t('recording.stop')}
          </button>
        </>
      ) : null}
      {state.kind === 'unsupported' ? <p role="alert">{t('recording.unsupported')}</p> : null}
      {state.kind === 'denied' ? <p role="alert">{t('recording.denied')}</p> : null}
      {state.kind === 'done' ? (
        upload.isSuccess ? (
          <p role="status" data-testid="recording-sent">{t('recording.sent', { seconds: upload.data.durationSeconds })}</p>
        ) : upload.isError ? (
          <>
            <p role="alert" className="dialog-error">{t('recording.failed')} {errorMessage(upload.error)}</p>
            <button
              type="button"
              onClick={() => {
                upload.mutate({ sosCaseId, uploadId, durationSeconds: state.seconds, audio: state.audio });
              }}
            >
              {t('recording.retry')}
            </button>
          </>
        ) : (
          <p role="status">{t('recording.uploading')}</p>
        )
      ) : null}
    </section>
  );
}
