import { TermTable } from './term-table';

const terms = ['b', 'ab', 'a', 'abc', 'b a', 'acb', 'ab d', 'x abd'];
const vocabulary = new TermTable(
  7n,
  terms.map((term, index) => ({ pk: String(index + 1), term, isName: index % 2 === 0 })),
  terms.map((term, index) => ({ pk: String(index + 1), name: term.toUpperCase() })),
);
const shown = (found: number[]) => found.map((term) => vocabulary.term(term));

describe('terms in memory', () => {
  it('find the terms that start with a prefix, in term order, up to the cap', () => {
    expect(shown(vocabulary.termsMatching({ before: 'a' }, 10))).toEqual(['a', 'ab', 'ab d', 'abc', 'acb']);
    expect(shown(vocabulary.termsMatching({ before: 'ab' }, 2))).toEqual(['ab', 'ab d']);
    expect(shown(vocabulary.termsMatching({ before: 'c' }, 10))).toEqual([]);
  });

  it('match one character of any kind where the pattern has its wildcard', () => {
    expect(shown(vocabulary.termsMatching({ before: 'a', after: 'b' }, 10))).toEqual(['acb']);
    expect(shown(vocabulary.termsMatching({ before: 'a', after: '' }, 10))).toEqual(['ab', 'ab d', 'abc', 'acb']);
    expect(shown(vocabulary.termsMatching({ before: 'ab', after: 'd' }, 10))).toEqual(['ab d']);
    // In front: a walk of the first characters.
    expect(shown(vocabulary.termsMatching({ before: '', after: 'b' }, 10))).toEqual(['ab', 'ab d', 'abc']);
    expect(shown(vocabulary.wordsMatching({ before: '', after: 'bd' }, 10))).toEqual(['x abd']);
  });

  it('find a word that starts inside a term, never the term’s first', () => {
    expect(shown(vocabulary.wordsMatching({ before: 'a' }, 10))).toEqual(['b a', 'x abd']);
    expect(shown(vocabulary.wordsMatching({ before: 'd' }, 10))).toEqual(['ab d']);
    expect(shown(vocabulary.wordsMatching({ before: 'x' }, 10))).toEqual([]);
  });

  it('keep each term’s concept, whether it is the name, and the names to show', () => {
    const [abc] = vocabulary.termsMatching({ before: 'abc' }, 1);
    expect({ pk: vocabulary.pk(abc), isName: vocabulary.isName(abc), name: vocabulary.nameOf('4'), version: vocabulary.version }).toEqual({
      pk: '4',
      isName: false,
      name: 'ABC',
      version: 7n,
    });
  });
});
