import { describe, expect, it } from 'vitest';
import { asTenantCode, initialTenantCode } from './remembered-tenant';

describe('initialTenantCode', () => {
  it('takes the code of a tenant link first, in lower case', () => {
    expect(initialTenantCode('?tenant=Demo', 'other')).toEqual({ code: 'demo', fromLink: true });
    expect(initialTenantCode('?method=otp&tenant=%20clinic-2%20', null)).toEqual({ code: 'clinic-2', fromLink: true });
  });

  it('falls back to the remembered code, then to nothing', () => {
    expect(initialTenantCode('', 'demo')).toEqual({ code: 'demo', fromLink: false });
    expect(initialTenantCode('?tenant=', 'demo')).toEqual({ code: 'demo', fromLink: false });
    expect(initialTenantCode('', null)).toBeNull();
  });

  it('ignores values that cannot be tenant codes', () => {
    expect(initialTenantCode('?tenant=%3Cscript%3E', null)).toBeNull();
    expect(initialTenantCode('', 'a b')).toBeNull();
    expect(asTenantCode('x')).toBeNull();
    expect(asTenantCode(`a${'b'.repeat(40)}`)).toBeNull();
  });
});
