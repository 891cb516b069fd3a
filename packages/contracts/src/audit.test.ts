import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS } from './audit.js';

describe('audit actions', () => {
  it('names each action once (a list of options built from them may not repeat a value)', () => {
    expect(AUDIT_ACTIONS.filter((action, index) => AUDIT_ACTIONS.indexOf(action) !== index)).toEqual([]);
  });
});
