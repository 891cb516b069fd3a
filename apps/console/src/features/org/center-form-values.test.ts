import { describe, expect, it } from 'vitest';
import { centerFormSchema } from '@rpm/contracts';
import { centerFormData, centerSchemaInput, EMPTY_CENTER } from './center-form-values';

const MAIN = '00000000-0000-4000-8000-000000000011';
const SUPPORT = ['00000000-0000-4000-8000-000000000012', '00000000-0000-4000-8000-000000000013'];
const SCOPE = '00000000-0000-4000-8000-000000000021';

describe('center form', () => {
  it('requires a name and a main admin, and checks the phone digits', () => {
    const result = centerFormSchema.safeParse(centerSchemaInput({ ...EMPTY_CENTER, phoneNumber: '12' }));
    expect(result.success).toBe(false);
    const paths = result.error?.issues.map((issue) => issue.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['name', 'mainAdminId', 'phoneNumber']));
  });

  it('sends every field, coordinates as text, support admins repeated and the logo as a file part', () => {
    const parsed = centerFormSchema.parse(
      centerSchemaInput({
        ...EMPTY_CENTER,
        name: ' Riverside Clinic ',
        phoneNumber: '0281234567',
        lat: '10.5',
        lng: '',
        scopeId: SCOPE,
        mainAdminId: MAIN,
        supportAdminIds: SUPPORT,
      }),
    );
    const logo = new File([new Uint8Array([137, 80, 78, 71])], 'logo.png', { type: 'image/png' });
    const body = centerFormData(parsed, logo);
    expect(body.get('name')).toBe('Riverside Clinic');
    expect(body.get('lat')).toBe('10.5');
    expect(body.has('lng')).toBe(false);
    expect(body.get('scopeId')).toBe(SCOPE);
    expect(body.get('mainAdminId')).toBe(MAIN);
    expect(body.getAll('supportAdminIds')).toEqual(SUPPORT);
    expect(body.get('logo')).toBeInstanceOf(File);
  });

  it('refuses the main admin among the support admins', () => {
    const result = centerFormSchema.safeParse(
      centerSchemaInput({ ...EMPTY_CENTER, name: 'A', mainAdminId: MAIN, supportAdminIds: [MAIN] }),
    );
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['supportAdminIds']);
  });
});
