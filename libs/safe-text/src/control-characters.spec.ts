import { FREE_TEXT, LINE_TEXT } from './control-characters';

describe('the control-character rule', () => {
  it('refuses every C0 control character and DEL in a line of text', () => {
    for (let code = 0; code < 0x20; code += 1) expect(LINE_TEXT.accepts(`a${String.fromCharCode(code)}b`)).toBe(false);
    expect(LINE_TEXT.accepts('a\u007fb')).toBe(false);
    expect(LINE_TEXT.accepts('Crohn’s disease, 😀 é')).toBe(true);
  });

  it('keeps line breaks and tabs in free text, and refuses only NUL', () => {
    expect(FREE_TEXT.accepts('first line\r\nsecond\tline')).toBe(true);
    expect(FREE_TEXT.accepts('before\u0000after')).toBe(false);
  });
});
