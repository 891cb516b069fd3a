import { describe, expect, it } from 'vitest';
import { dayText, fileKind, recordsPath, sizeText } from './format';

describe('medical records formatting', () => {
  it('asks for the latest examination first, with the search and type only when set', () => {
    expect(recordsPath({ search: '', type: '' }, 0, 20)).toBe(
      '/health/me/records?page=0&size=20&sortField=examinationDate&sortType=desc',
    );
    expect(recordsPath({ search: '  Chợ Rẫy & co ', type: 'RESULT_CARD' }, 2, 20)).toBe(
      '/health/me/records?page=2&size=20&sortField=examinationDate&sortType=desc&search=Ch%E1%BB%A3+R%E1%BA%ABy+%26+co&type=RESULT_CARD',
    );
  });

  it('shows the examination day as the calendar day, whatever the device zone', () => {
    expect(dayText('en', '2025-01-15')).toBe('Jan 15, 2025');
    expect(dayText('en', '2025-12-31')).toBe('Dec 31, 2025');
    expect(dayText('en-GB', '2025-01-01')).toBe('1 Jan 2025');
    expect(dayText('vi', '2025-01-15')).toMatch(/15.*2025/);
  });

  it('sizes files in B, KB and MB', () => {
    expect(sizeText('en', 512)).toBe('512 B');
    expect(sizeText('en', 2_345)).toBe('2.3 KB');
    expect(sizeText('en', 123_456)).toBe('123 KB');
    expect(sizeText('en', 4_200_000)).toBe('4.2 MB');
    expect(sizeText('vi', 2_345)).toBe('2,3 KB');
  });

  it('tells a PDF from an image', () => {
    expect(fileKind({ contentType: 'application/pdf' })).toBe('pdf');
    expect(fileKind({ contentType: 'image/png' })).toBe('image');
    expect(fileKind({ contentType: 'image/jpeg' })).toBe('image');
  });
});
