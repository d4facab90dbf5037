import { conditionTerms, labTestTerms } from './catalogue-terms';

describe('type-ahead terms of lab tests and conditions', () => {
  it('are a lab test’s name with and without its groups, the groups that are aliases, and its components', () => {
    expect(labTestTerms('Alanine aminotransferase (ALT)', ['ALT'])).toEqual([
      { term: 'alanine aminotransferase (alt)', isName: true },
      { term: 'alanine aminotransferase', isName: true },
      { term: 'alt', isName: true },
    ]);
    // A group without a capital letter qualifies the name: not an alias.
    expect(labTestTerms('Glucose, fasting (serum/plasma)', [])).toEqual([
      { term: 'glucose, fasting (serum/plasma)', isName: true },
      { term: 'glucose, fasting', isName: true },
    ]);
    expect(labTestTerms('Complete blood count (CBC)', ['Haemoglobin', 'Platelets']).map((t) => t.term)).toEqual([
      'complete blood count (cbc)',
      'complete blood count',
      'cbc',
      'haemoglobin',
      'platelets',
    ]);
  });

  it('are a condition’s name and the forms without the possessive’s apostrophe', () => {
    expect(conditionTerms("Alzheimer's disease")).toEqual([
      { term: "alzheimer's disease", isName: true },
      { term: 'alzheimers disease', isName: false },
      { term: 'alzheimer disease', isName: false },
    ]);
    expect(conditionTerms("Graves' disease").map((t) => t.term)).toEqual(["graves' disease", 'graves disease']);
    expect(conditionTerms('Asthma')).toEqual([{ term: 'asthma', isName: true }]);
  });
});
