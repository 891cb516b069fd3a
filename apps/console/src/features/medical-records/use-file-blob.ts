import { useEffect, useState } from 'react';
import { PATIENT_FILE_TYPES } from '@rpm/contracts';
import { fetchFileBlob } from '../imports/imports-api';

export type FileBlobState =
  | { status: 'loading' }
  | { status: 'error'; error: unknown }
  | { status: 'ready'; url: string; type: string };

/**
 * An attachment fetched with the session's cookies and held as a blob: URL for as long as it is
 * shown (an <img>, an <iframe>), then released. Typed by the answer's Content-Type when it is one
 * of the accepted types, else by what the record says of the file. `attempt` fetches it again.
 */
export function useFileBlob(path: string, contentType: string, attempt = 0): FileBlobState {
  const [state, setState] = useState<{ key: string; value: FileBlobState }>({
    key: '',
    value: { status: 'loading' },
  });
  const key = `${path}#${String(attempt)}`;
  useEffect(() => {
    let url: string | null = null;
    let isCurrent = true;
    fetchFileBlob(path).then(
      (blob) => {
        if (!isCurrent) return;
        const type = (PATIENT_FILE_TYPES as readonly string[]).includes(blob.type) ? blob.type : contentType;
        url = URL.createObjectURL(blob.type === type ? blob : new Blob([blob], { type }));
        setState({ key, value: { status: 'ready', url, type } });
      },
      (error: unknown) => {
        if (isCurrent) setState({ key, value: { status: 'error', error } });
      },
    );
    return () => {
      isCurrent = false;
      if (url !== null) URL.revokeObjectURL(url);
    };
  }, [path, contentType, key]);
  // A new file (or a retry) shows as loading until its own answer comes.
  return state.key === key ? state.value : { status: 'loading' };
}
