import { beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, initI18n } from '../i18n';
import { chartColor, countTicks, describeBars } from './count-charts';

beforeAll(async () => {
  await initI18n();
});

describe('count charts', () => {
  it('draw whole-count gridlines up to a round maximum', () => {
    expect(countTicks(0)).toEqual([0, 1]);
    expect(countTicks(3)).toEqual([0, 1, 2, 3]);
    expect(countTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(countTicks(1234)).toEqual([0, 500, 1000, 1500]);
  });

  it('take theme colours with or without a shade, and any CSS colour', () => {
    expect(chartColor('blue.6')).toBe('var(--mantine-color-blue-6)');
    expect(chartColor('teal')).toBe('var(--mantine-color-teal-6)');
    expect(chartColor('#ff0000')).toBe('#ff0000');
  });

  it('name their figures in the console language', () => {
    changeLanguage('vi');
    const categories = [
      { key: '2026-11-01', label: '01/11', values: { created: 5008, closed: 2 } },
      { key: '2026-11-02', label: '02/11', values: { created: 0, closed: 1 } },
    ];
    expect(
      describeBars('Per day', categories, [
        { key: 'created', label: 'Created', color: 'blue.6' },
        { key: 'closed', label: 'Closed', color: 'green.6' },
      ]),
    ).toBe('Per day. 01/11: Created 5.008, Closed 2; 02/11: Created 0, Closed 1');
    changeLanguage('en');
    expect(
      describeBars(
        'Patients',
        [{ key: 'SOS', label: 'SOS', values: { count: 1200 } }],
        [{ key: 'count', label: 'Total', color: 'blue' }],
      ),
    ).toBe('Patients. SOS 1,200');
    expect(describeBars('Empty', [], [])).toBe('Empty');
  });
});
