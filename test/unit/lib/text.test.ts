import { MalformedRequest, parseAssemblyRequest } from '../../../src/parsers/assembly.parser';
import { parseCreateKey } from '../../../src/parsers/keys.parser';
import { codePointLength, findUnstorableText, isUnstorable } from '../../../src/lib/text';

const EMOJI = '\u{1F600}';

describe('codePointLength', () => {
  it('counts an emoji, RTL letters and zero-width joiners as one character each', () => {
    expect(codePointLength(EMOJI.repeat(128))).toBe(128);
    expect(codePointLength('\u05E9\u05DC\u05D5\u05DD')).toBe(4);
    expect(codePointLength('a\u200Db')).toBe(3);
    expect(codePointLength('\uD800x')).toBe(2);
  });
});

describe('isUnstorable', () => {
  it.each([
    ['NUL', 'a\u0000b'],
    ['a lone high surrogate', 'a\uD83Db'],
    ['a lone low surrogate', '\uDE00'],
    ['a high surrogate at the end', 'abc\uD83D'],
  ])('refuses %s', (_name, text) => expect(isUnstorable(text)).toBe(true));

  it.each([
    ['an emoji', EMOJI],
    ['RTL', '\u202Eabc\u202C'],
    ['zero-width', '\u200B\u200C\u200D\uFEFF'],
    ['U+FFFD itself', '\uFFFD'],
  ])('accepts %s', (_name, text) => expect(isUnstorable(text)).toBe(false));
});

describe('findUnstorableText', () => {
  it('names the path of the first unstorable string, keys included', () => {
    expect(findUnstorableText({ data: { components: [{ label: 'ok' }, { label: 'x\u0000' }] } })).toBe('data.components[1].label');
    expect(findUnstorableText({ a: { 'k\uD800': 1 } }, 'body')).toBe('body.a');
    expect(findUnstorableText({ a: [1, true, null, 'fine'] })).toBeNull();
  });

  it('walks a very deep value without overflowing the stack', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findUnstorableText(deep)).toMatch(/^\[0\]/);
  });
});

describe('parsers count characters, not UTF-16 units', () => {
  const tree = { label: 'R', components: [{ label: 'L', data_type: 'XdString' }] };

  it('accepts a 128-emoji title and a 255-emoji one', () => {
    expect(parseAssemblyRequest({ title: EMOJI.repeat(128), data: tree }).title).toBe(EMOJI.repeat(128));
    expect(parseAssemblyRequest({ title: EMOJI.repeat(255), data: tree }).title).toBe(EMOJI.repeat(255));
  });

  it('refuses a 256-character title', () => {
    expect(() => parseAssemblyRequest({ title: EMOJI.repeat(256), data: tree })).toThrow(MalformedRequest);
  });

  it('accepts a 110-emoji root label and refuses 111', () => {
    expect(() => parseAssemblyRequest({ title: 'T', data: { ...tree, label: EMOJI.repeat(110) } })).not.toThrow();
    expect(() => parseAssemblyRequest({ title: 'T', data: { ...tree, label: EMOJI.repeat(111) } })).toThrow(MalformedRequest);
  });

  it('accepts a key name of 100 emoji', () => {
    expect(parseCreateKey({ name: EMOJI.repeat(100) }).name).toBe(EMOJI.repeat(100));
  });
});
