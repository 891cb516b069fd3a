import { useState } from 'react';
import { Stack } from '@mantine/core';
import { usePagedList } from '../shell/paged-list';
import type { PrescriptionSortField } from './care-plan-api';
import { CareReminders } from './care-reminders';
import { DosesOfDay } from './doses-of-day';
import { PrescriptionDetailPanel } from './prescription-detail';
import { PrescriptionForm, type PrescriptionFormMode } from './prescription-form';
import {
  INITIAL_PRESCRIPTION_FILTER,
  PrescriptionList,
  type PrescriptionListFilter,
} from './prescription-list';

/** What the tab shows: the list, one prescription, or the form (back to where it was opened from). */
type View =
  | { kind: 'list' }
  | { kind: 'detail'; id: string }
  | { kind: 'form'; mode: PrescriptionFormMode; from: { kind: 'list' } | { kind: 'detail'; id: string } };

/**
 * The prescriptions tab of a patient profile (spec §2 prescriptions, §4 states, §5 rules): the
 * list, a prescription's detail with its usage history, the form to write, edit or reuse one (for
 * holders of health.prescribe; others read), and the patient's doses of a day.
 */
export function PatientCarePlanTab({ patientId }: { patientId: string }) {
  const [view, setView] = useState<View>({ kind: 'list' });
  // Kept here so the search, filter and page survive a look at one prescription.
  const list = usePagedList<PrescriptionSortField, PrescriptionListFilter>(INITIAL_PRESCRIPTION_FILTER);
  const open = (id: string) => {
    setView({ kind: 'detail', id });
  };
  return (
    <Stack gap="lg" data-testid="care-plan-tab">
      {view.kind === 'list' ? (
        <PrescriptionList
          patientId={patientId}
          list={list}
          onOpen={open}
          onNew={() => {
            setView({ kind: 'form', mode: { kind: 'new' }, from: { kind: 'list' } });
          }}
        />
      ) : null}
      {view.kind === 'detail' ? (
        <PrescriptionDetailPanel
          key={view.id}
          patientId={patientId}
          prescriptionId={view.id}
          onBack={() => {
            setView({ kind: 'list' });
          }}
          onOpen={open}
          onEdit={(prescription) => {
            setView({ kind: 'form', mode: { kind: 'edit', prescription }, from: view });
          }}
          onReuse={(prescription) => {
            setView({ kind: 'form', mode: { kind: 'reuse', prescription }, from: view });
          }}
        />
      ) : null}
      {view.kind === 'form' ? (
        <PrescriptionForm
          patientId={patientId}
          mode={view.mode}
          onCancel={() => {
            setView(view.from);
          }}
          onSaved={(saved) => {
            open(saved.id);
          }}
        />
      ) : (
        <>
          <DosesOfDay patientId={patientId} />
          <CareReminders patientId={patientId} />
        </>
      )}
    </Stack>
  );
}
