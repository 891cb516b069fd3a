import { describe, expect, it } from 'vitest';
import { searchPlanOf, searchWordsOf } from './search.js';

describe('searchWordsOf', () => {
  it('cuts names and ids at spaces and punctuation, as the terms are cut', () => {
    expect(searchWordsOf('  Trần   Lan ')).toEqual([
      { kind: 'word', text: 'Trần' },
      { kind: 'word', text: 'Lan' },
    ]);
    expect(searchWordsOf('Lê-Văn, Bình')).toEqual([
      { kind: 'word', text: 'Lê' },
      { kind: 'word', text: 'Văn' },
      { kind: 'word', text: 'Bình' },
    ]);
    expect(searchWordsOf('BNCS10001')).toEqual([{ kind: 'word', text: 'BNCS10001' }]);
    expect(searchWordsOf('BN-10001')).toEqual([
      { kind: 'word', text: 'BN' },
      { kind: 'digits', text: '10001' },
    ]);
  });

  it('reads a phone number written with separators as its digits', () => {
    expect(searchWordsOf('090 123 4567')).toEqual([{ kind: 'digits', text: '0901234567' }]);
    expect(searchWordsOf('+84 (90) 123-4567')).toEqual([{ kind: 'digits', text: '84901234567' }]);
    expect(searchWordsOf('4567')).toEqual([{ kind: 'digits', text: '4567' }]);
    // Beside a name, digits are a word of their own (a phone's end, an id's number).
    expect(searchWordsOf('Lan 4567')).toEqual([
      { kind: 'word', text: 'Lan' },
      { kind: 'digits', text: '4567' },
    ]);
  });

  it('looks for a word with an @ as an email from its start', () => {
    expect(searchWordsOf('an.nguyen@mail')).toEqual([{ kind: 'email', text: 'an.nguyen@mail' }]);
  });

  it('drops what holds no letter or digit and words said twice, and reads at most eight', () => {
    expect(searchWordsOf('%')).toEqual([]);
    expect(searchWordsOf(' - ')).toEqual([]);
    expect(searchWordsOf('@')).toEqual([]);
    expect(searchWordsOf('lan lan')).toEqual([{ kind: 'word', text: 'lan' }]);
    expect(searchWordsOf('a b c d e f g h i j')).toHaveLength(8);
  });
});

describe('searchPlanOf', () => {
  const words = searchWordsOf('tran linh');
  const row = (terms: string[][], sizes: (number | null)[], rarestFirst: number[] | null = null): Record<string, unknown> =>
    Object.fromEntries<unknown>([
      ...terms.map((list, index): [string, unknown] => [`terms_${String(index)}`, list]),
      ...sizes.map((size, index): [string, unknown] => [`size_${String(index)}`, size]),
      ['rarest_first', rarestFirst],
    ]);
  const many = Array.from({ length: 17 }, (_, index) => `t${String(index)}`);

  it('finds words of at most 16 terms each through the documents, rarest word first', () => {
    expect(searchPlanOf(words, row([['tran', 'trang'], ['linh']], [null, null], [1, 0]))).toEqual({
      kind: 'documents',
      terms: [['tran', 'trang'], ['linh']],
      rarestFirst: [1, 0],
    });
    // Without a usable order, as typed.
    expect(searchPlanOf(words, row([['tran'], ['linh']], [null, null], [3]))).toMatchObject({ rarestFirst: [0, 1] });
    // No term at all: nothing is found, through the documents too.
    expect(searchPlanOf(words, row([[], ['linh']], [null, null]))?.kind).toBe('documents');
    // A word of digits (a phone's, an id's number) or an email is not in the documents: counted instead.
    expect(searchPlanOf(searchWordsOf('tran 0912'), row([['tran'], ['0912345678']], [5_000, 1]))).toMatchObject({ kind: 'probe', driver: 1 });
    expect(searchPlanOf(searchWordsOf('tran an@x'), row([['tran'], ['@an@x.vn']], [5_000, 1]))?.kind).toBe('probe');
    // One word: no plan.
    expect(searchPlanOf(searchWordsOf('tran'), row([['tran']], [null]))).toBeUndefined();
  });

  it('counts a word of more terms, and probes or intersects by the counts', () => {
    // The word of many terms is the rarest: probed from it, the other word's terms listed.
    expect(searchPlanOf(words, row([many, ['linh']], [100, 5_000]))).toEqual({ kind: 'probe', driver: 0, terms: [many, ['linh']] });
    // It is not the rarest: the rarest word's rows cannot be probed for its terms.
    expect(searchPlanOf(words, row([many, ['linh']], [5_000, 100]))).toBeUndefined();
    // Both counted past the bound: intersected.
    expect(searchPlanOf(words, row([many, ['linh']], [20_000, 20_000]))).toBeUndefined();
  });
});
