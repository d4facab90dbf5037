import { drugTerms, foldText, withoutSalt } from './drug-terms';

describe('drug search terms', () => {
  it('fold case, accents and spacing', () => {
    expect(foldText('  Pyriméthamine   SULFADOXINE ')).toBe('pyrimethamine sulfadoxine');
    expect(foldText('ÍBUPROFÈN')).toBe('ibuprofen');
  });

  it('take the salt, ester or hydrate off the end of a name, and nothing else', () => {
    expect(withoutSalt('metformin hydrochloride')).toBe('metformin');
    expect(withoutSalt('methylprednisolone sodium succinate')).toBe('methylprednisolone');
    expect(withoutSalt('levothyroxine sodium')).toBe('levothyroxine');
    expect(withoutSalt('metformin')).toBeUndefined();
    // The salt is the drug: nothing is left without it.
    expect(withoutSalt('sodium chloride')).toBeUndefined();
    expect(withoutSalt('sodium ferric gluconate complex')).toBeUndefined();
  });

  it('are the name, its salt-free form, each ingredient of a combination and the brands', () => {
    expect(drugTerms('GLIPIZIDE; METFORMIN HYDROCHLORIDE', ['METAGLIP', 'Metaglip'])).toEqual([
      { term: 'glipizide; metformin hydrochloride', isName: true },
      { term: 'glipizide', isName: false },
      { term: 'metformin hydrochloride', isName: false },
      { term: 'metformin', isName: false },
      { term: 'metaglip', isName: false },
    ]);
    expect(drugTerms('Abacavir + lamivudine', []).map((t) => t.term)).toEqual(['abacavir + lamivudine', 'abacavir', 'lamivudine']);
    expect(drugTerms('ALOGLIPTIN AND METFORMIN HYDROCHLORIDE', []).map((t) => t.term)).toContain('metformin');
    expect(drugTerms('Metformin Hydrochloride', ['GLUCOPHAGE'])).toEqual([
      { term: 'metformin hydrochloride', isName: true },
      { term: 'metformin', isName: true },
      { term: 'glucophage', isName: false },
    ]);
  });
});
