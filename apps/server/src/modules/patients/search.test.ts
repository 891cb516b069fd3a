import { describe, expect, it } from 'vitest';
import { searchWordsOf } from './search.js';

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
