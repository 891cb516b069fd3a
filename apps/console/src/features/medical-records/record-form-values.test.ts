import { describe, expect, it } from 'vitest';
import { medicalRecordInputSchema, PATIENT_FILE_MAX_BYTES, type MedicalRecord } from '@rpm/contracts';
import {
  checkPickedFiles,
  emptyRecordValues,
  examinationDateMessage,
  fileKindOf,
  recordCandidate,
  recordValuesOf,
} from './record-form-values';

const file = (name: string, type: string, size = 1000) => ({ name, type, size });

describe('the medical record form values', () => {
  it('sends the date as ISO, leaves blank optional texts out and asks for a type', () => {
    const values = {
      ...emptyRecordValues(),
      title: 'Blood test',
      examinationDate: '05/03/2024',
      place: '  ',
    };
    expect(recordCandidate(values)).toEqual({
      title: 'Blood test',
      type: undefined,
      examinationDate: '2024-03-05',
      place: undefined,
      doctor: undefined,
      note: undefined,
    });
    const parsed = medicalRecordInputSchema.safeParse(recordCandidate(values));
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['type']);
    expect(medicalRecordInputSchema.safeParse(recordCandidate({ ...values, type: 'BILL' })).success).toBe(
      true,
    );
  });

  it('keeps an unreal date as typed so the schema refuses it', () => {
    const candidate = recordCandidate({ ...emptyRecordValues(), examinationDate: '31/02/2024' });
    expect(candidate.examinationDate).toBe('31/02/2024');
    expect(recordCandidate(emptyRecordValues()).examinationDate).toBeUndefined();
  });

  it('fills the form from a record', () => {
    const record: MedicalRecord = {
      id: '00000000-0000-4000-8000-000000000001',
      patientId: '00000000-0000-4000-8000-000000000002',
      title: 'X-ray',
      type: 'RESULT_CARD',
      examinationDate: '2023-12-01',
      place: null,
      doctor: 'Dr. Tran',
      note: null,
      files: [],
      createdBy: null,
      createdAt: '2023-12-02T01:00:00.000Z',
      updatedAt: '2023-12-02T01:00:00.000Z',
    };
    expect(recordValuesOf(record)).toEqual({
      title: 'X-ray',
      type: 'RESULT_CARD',
      examinationDate: '01/12/2023',
      place: '',
      doctor: 'Dr. Tran',
      note: '',
    });
  });

  it('takes examination dates from 1 January 1900 to today', () => {
    const today = '2026-04-10';
    expect(examinationDateMessage('1899-12-31', today)).toEqual({ key: 'errors:medicalRecord.invalidDate' });
    expect(examinationDateMessage('1900-01-01', today)).toBeNull();
    expect(examinationDateMessage('2026-04-10', today)).toBeNull();
    expect(examinationDateMessage('2026-04-11', today)).toEqual({ key: 'form.dateFuture' });
  });
});

describe('checkPickedFiles', () => {
  it('takes jpg, png and pdf files up to 10 MB, by type or, without one, by name', () => {
    const { accepted, refused } = checkPickedFiles(
      [
        file('scan.pdf', 'application/pdf'),
        file('photo.JPG', ''),
        file('page.png', 'image/png', PATIENT_FILE_MAX_BYTES),
        file('notes.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'),
        file('big.jpg', 'image/jpeg', PATIENT_FILE_MAX_BYTES + 1),
      ],
      0,
    );
    expect(accepted.map((item) => item.name)).toEqual(['scan.pdf', 'photo.JPG', 'page.png']);
    expect(refused).toEqual([
      { name: 'notes.docx', message: { key: 'errors:file.unsupportedType' } },
      { name: 'big.jpg', message: { key: 'errors:file.tooLarge' } },
    ]);
  });

  it('stops at 10 files on the record, counting those it has', () => {
    const picked = ['a', 'b', 'c'].map((name) => file(`${name}.png`, 'image/png'));
    const { accepted, refused } = checkPickedFiles(picked, 8);
    expect(accepted.map((item) => item.name)).toEqual(['a.png', 'b.png']);
    expect(refused).toEqual([{ name: null, message: { key: 'errors:medicalRecord.tooManyFiles' } }]);
    expect(checkPickedFiles(picked, 10).accepted).toEqual([]);
  });

  it('names file kinds as people do', () => {
    expect(['application/pdf', 'image/png', 'image/jpeg'].map(fileKindOf)).toEqual(['PDF', 'PNG', 'JPG']);
  });
});
