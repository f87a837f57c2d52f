import { markerOf, visibleText } from './visible-text';

describe('visibleText', () => {
  it('shows a right-to-left override as a marker, so a file name reads as it is', () => {
    // "invoice\u202Efdp.exe" renders as "invoiceexe.pdf" in a browser.
    expect(visibleText('invoice\u202Efdp.exe')).toBe('invoice⟨U+202E⟩fdp.exe');
  });

  it('marks every bidirectional embedding, override and isolate, and the zero-width characters', () => {
    const hidden = [
      ...Array.from({ length: 5 }, (_, i) => 0x202a + i),
      ...Array.from({ length: 4 }, (_, i) => 0x2066 + i),
      ...Array.from({ length: 5 }, (_, i) => 0x200b + i),
      0x2060,
      0xfeff,
      0x00ad,
      0x061c,
      0x2028,
      0x2029,
      0x3164,
    ];
    for (const code of hidden) {
      const char = String.fromCodePoint(code);
      expect(visibleText(`a${char}b`)).toBe(`a${markerOf(char)}b`);
    }
    expect(markerOf('\u200B')).toBe('⟨U+200B⟩');
  });

  it('marks controls, C1 controls and DEL; keeps line feeds and tabs only where lines are wanted', () => {
    expect(visibleText('a\u0000b\u001Bc\u007Fd\u0085e')).toBe('a⟨U+0000⟩b⟨U+001B⟩c⟨U+007F⟩d⟨U+0085⟩e');
    expect(visibleText('one\ntwo\tthree\r')).toBe('one⟨U+000A⟩two⟨U+0009⟩three⟨U+000D⟩');
    expect(visibleText('one\ntwo\tthree\r', { lines: true })).toBe('one\ntwo\tthree⟨U+000D⟩');
  });

  it('marks Unicode tags (text hidden in plain sight), variation selectors beyond emoji, and lone surrogates', () => {
    const smuggled = [...'approve'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
    expect(visibleText(`ok${smuggled}`)).toBe('ok⟨U+E0061⟩⟨U+E0070⟩⟨U+E0070⟩⟨U+E0072⟩⟨U+E006F⟩⟨U+E0076⟩⟨U+E0065⟩');
    expect(visibleText('x\u{E0100}\uFE00')).toBe('x⟨U+E0100⟩⟨U+FE00⟩');
    expect(visibleText('x\uD800y')).toBe('x⟨U+D800⟩y');
  });

  it('leaves ordinary text alone: accents, scripts, emoji with their presentation selector', () => {
    for (const text of ['Zoë Ångström', 'طلب استرداد', '注文 A-17', '❤️ 👍🏽', 'a ⟩ b', '']) {
      expect(visibleText(text)).toBe(text);
    }
  });

  it('marks a ⟨ of the text itself, so the text cannot forge a marker', () => {
    expect(visibleText('⟨U+202E⟩')).toBe('⟨U+27E8⟩U+202E⟩');
  });
});
