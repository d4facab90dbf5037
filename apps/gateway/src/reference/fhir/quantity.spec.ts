import { numericRange, simpleQuantity } from './quantity';

describe('simpleQuantity', () => {
  it.each([
    ['300 mg', { value: 300, unit: 'mg' }],
    ['0.5mg', { value: 0.5, unit: 'mg' }],
    ['1 %', { value: 1, unit: '%' }],
    ['100 µg', { value: 100, unit: 'µg' }],
  ])('reads %s', (text, quantity) => {
    expect(simpleQuantity(text)).toEqual(quantity);
  });

  it.each(['20 mg/mL', '400 mg + 80 mg', 'mg', '', '1e3 mg'])('leaves %s to the strength text', (text) => {
    expect(simpleQuantity(text)).toBeUndefined();
  });
});

describe('numericRange', () => {
  it.each([
    ['3.5-5.1', { low: 3.5, high: 5.1 }],
    ['30 – 100', { low: 30, high: 100 }],
    ['<200', { high: 200 }],
    ['<= 5', { high: 5 }],
    ['>60', { low: 60 }],
  ])('reads %s', (text, range) => {
    expect(numericRange(text)).toEqual(range);
  });

  it.each(['Negative', 'M: 13-17; F: 12-15', '', 'No pathogens isolated'])('leaves %s as text', (text) => {
    expect(numericRange(text)).toBeUndefined();
  });
});
