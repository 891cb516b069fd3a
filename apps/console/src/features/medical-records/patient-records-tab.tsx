import { useState } from 'react';
import { Stack } from '@mantine/core';
import { usePagedList } from '../shell/paged-list';
import type { MedicalRecordSortField } from './medical-records-api';
import { RecordDetailDrawer } from './record-detail';
import { RecordFormDialog, type RecordFormMode } from './record-form';
import { INITIAL_RECORD_FILTER, RecordList, type RecordListFilter } from './record-list';

/**
 * The medical records tab of a patient profile (spec §2 medical records, §3 Medical record): the
 * list, a record's detail in a drawer with its attachments shown in the console, and the dialog
 * to add or edit one (for holders of user.update; others read).
 */
export function PatientMedicalRecordsTab({ patientId }: { patientId: string }) {
  // Kept here so the search, filter and page survive a look at one record.
  const list = usePagedList<MedicalRecordSortField, RecordListFilter>(INITIAL_RECORD_FILTER);
  const [openId, setOpenId] = useState<string | null>(null);
  const [formMode, setFormMode] = useState<RecordFormMode | null>(null);
  return (
    <Stack gap="lg" data-testid="medical-records-tab">
      <RecordList
        patientId={patientId}
        list={list}
        onOpen={setOpenId}
        onNew={() => {
          setFormMode({ kind: 'new' });
        }}
      />
      <RecordDetailDrawer
        patientId={patientId}
        recordId={openId}
        onClose={() => {
          setOpenId(null);
        }}
        onEdit={(record) => {
          setFormMode({ kind: 'edit', record });
        }}
      />
      <RecordFormDialog
        patientId={patientId}
        mode={formMode}
        onClose={() => {
          setFormMode(null);
        }}
      />
    </Stack>
  );
}
