import { hoursOfOperation } from './location';

describe('hoursOfOperation', () => {
  it('reads day ranges and single days', () => {
    expect(hoursOfOperation('Mo-Fr 08:00-17:00; Sa 09:00-13:00')).toEqual([
      { daysOfWeek: ['mon', 'tue', 'wed', 'thu', 'fri'], openingTime: '08:00:00', closingTime: '17:00:00' },
      { daysOfWeek: ['sat'], openingTime: '09:00:00', closingTime: '13:00:00' },
    ]);
  });

  it('leaves closed days out and reads 24/7 as open all day', () => {
    expect(hoursOfOperation('Mo-Sa 08:00-18:00; Su,PH off')).toEqual([
      { daysOfWeek: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'], openingTime: '08:00:00', closingTime: '18:00:00' },
    ]);
    expect(hoursOfOperation('24/7')).toEqual([
      { daysOfWeek: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], allDay: true },
    ]);
  });

  it('gives up on anything it cannot read whole, so the text travels as it is', () => {
    expect(hoursOfOperation('Mo-Fr 08:00-17:00; PH 10:00-12:00')).toBeUndefined();
    expect(hoursOfOperation('Su,PH off')).toBeUndefined();
    expect(hoursOfOperation('Fr-Mo 08:00-17:00')).toBeUndefined();
    expect(hoursOfOperation('')).toBeUndefined();
  });
});
