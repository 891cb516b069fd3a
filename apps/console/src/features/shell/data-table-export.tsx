import { useState } from 'react';
import { Button } from '@mantine/core';
import { notifyError } from '../../lib/notify';

/**
 * Export of a list page: the file is made by the server from the list's filter and order, and
 * the button spins while it downloads; a failure is said in a toast with the page's own words.
 */
export function ExportButton({
  label,
  download,
  failureMessageKey,
}: {
  label: string;
  download: () => Promise<void>;
  /** The message key (with its namespace) that says the export failed. */
  failureMessageKey: string;
}) {
  const [isExporting, setExporting] = useState(false);
  return (
    <Button
      variant="default"
      loading={isExporting}
      onClick={() => {
        setExporting(true);
        download()
          .catch((error: unknown) => {
            notifyError(error, failureMessageKey);
          })
          .finally(() => {
            setExporting(false);
          });
      }}
    >
      {label}
    </Button>
  );
}
