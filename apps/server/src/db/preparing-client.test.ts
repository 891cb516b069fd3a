import { describe, expect, it } from 'vitest';
import { MAX_PREPARED_PER_CONNECTION, PREPARE_AFTER_USES, PreparingClient } from './preparing-client.js';

describe('PreparingClient.statementNameOf', () => {
  it('names a text from its PREPARE_AFTER_USES-th use on, always with the same name', () => {
    const client = new PreparingClient();
    const names = Array.from({ length: PREPARE_AFTER_USES + 2 }, () => client.statementNameOf('SELECT $1'));
    expect(names.slice(0, PREPARE_AFTER_USES - 1)).toEqual(Array(PREPARE_AFTER_USES - 1).fill(undefined));
    expect(new Set(names.slice(PREPARE_AFTER_USES - 1))).toEqual(new Set(['rpm_1']));
  });

  it('gives every text its own name and stops naming new texts at MAX_PREPARED_PER_CONNECTION', () => {
    const client = new PreparingClient();
    const nameOf = (text: string) => {
      let name: string | undefined;
      for (let use = 0; use < PREPARE_AFTER_USES; use += 1) name = client.statementNameOf(text);
      return name;
    };
    const names = Array.from({ length: MAX_PREPARED_PER_CONNECTION }, (_, index) => nameOf(`SELECT $1 + ${String(index)}`));
    expect(new Set(names).size).toBe(MAX_PREPARED_PER_CONNECTION);
    expect(nameOf('SELECT $1, 1')).toBeUndefined();
    // Texts already named keep their names.
    expect(client.statementNameOf('SELECT $1 + 0')).toBe(names[0]);
  });
});
