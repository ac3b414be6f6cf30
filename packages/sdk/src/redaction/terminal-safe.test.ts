import { ESCAPES, hostileText, TERMINAL_CONTROLS } from '@profile-articles/test-utils/hostile-strings';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { terminalSafe } from './terminal-safe.js';

const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('terminalSafe', () => {
  it('removes each attack whole, leaving only the text a person should read', () => {
    expect(terminalSafe(`Ada${ESCAPES.title}`)).toBe('Ada');
    expect(terminalSafe(`Ada${ESCAPES.titleSt}`)).toBe('Ada');
    expect(terminalSafe(`Ada${ESCAPES.clipboard}`)).toBe('Ada');
    expect(terminalSafe(`Ada${ESCAPES.clearScreen}`)).toBe('Ada');
    // OSC 8: the link goes, its words stay.
    expect(terminalSafe(`Ada ${ESCAPES.hyperlink}`)).toBe('Ada innocent link');
    // \r and the erase: what would have been written over is still there, before what follows.
    expect(terminalSafe(`Ada${ESCAPES.overwrite}`)).toBe('Ada OVERWRITTEN');
    expect(terminalSafe(`Ada${ESCAPES.c1}`)).toBe('Ada');
    expect(terminalSafe(`Ada${ESCAPES.csi}`)).toBe('Ada');
    expect(terminalSafe(`Ada${ESCAPES.bidi}`)).toBe('Adaevil.example');
    expect(terminalSafe(`Ada${ESCAPES.controls}`)).toBe('Ada');
  });

  it('joins what a sequence split, so that a search (or a key scrub) finds it whole', () => {
    expect(terminalSafe('sk-t\u001b[0mest-key')).toBe('sk-test-key');
    expect(terminalSafe('sk-t\u009b0mest\u0007-key')).toBe('sk-test-key');
  });

  it('takes an escape left open no further than its introducer', () => {
    // An OSC with no end would hide the rest from a terminal; here the rest shows as text.
    expect(terminalSafe('\u001b]2;no end\nnext line', 'lines')).toBe('2;no end\nnext line');
    expect(terminalSafe('cut short \u001b[')).toBe('cut short ');
    expect(terminalSafe('\u001b')).toBe('');
  });

  it('scans a long line of introducers left open once, not once per introducer', () => {
    // 300,000 of them took minutes when an OSC's text ran on over the next introducers.
    expect(terminalSafe('\u009da'.repeat(300_000), 'lines')).toBe('a'.repeat(300_000));
    expect(terminalSafe('\u001b]a'.repeat(300_000), 'lines')).toBe('a'.repeat(300_000));
  });

  it('keeps one field on one line; keeps the layout of text that has one', () => {
    expect(terminalSafe('Ada\nLovelace\r\nand\rthe\tengine')).toBe('Ada Lovelace and the engine');
    expect(terminalSafe('Ada\nLovelace\r\nand\rthe\tengine', 'lines')).toBe(
      'Ada\nLovelace\nand\nthe\tengine',
    );
  });

  it('drops the default-ignorable code points, so that no word (nor API key) is split invisibly', () => {
    // Combining grapheme joiner, variation selectors, a tag character, a Hangul filler, a soft hyphen, a Mongolian
    // variation selector, a shorthand format control, a musical symbol format control.
    const split = 'sk\u034f-li\ufe0fve\u{e0020}-01\u3164234\u00ad5\u180b6\u{1bca0}7\u{1d173}89';
    expect(terminalSafe(split)).toBe('sk-live-0123456789');
    expect(terminalSafe(split, 'lines')).toBe('sk-live-0123456789');
  });

  it('leaves ordinary and odd Unicode alone', () => {
    const text = 'Ada Lovelace — عربي — 𝓐 — e\u0301 — 🇬🇧 — 漢字';
    expect(terminalSafe(text)).toBe(text);
    expect(terminalSafe(text, 'lines')).toBe(text);
  });

  it('leaves no control character, whatever the text; twice is once', () => {
    fc.assert(
      fc.property(hostileText(), fc.constantFrom('line' as const, 'lines' as const), (text, layout) => {
        const safe = terminalSafe(text, layout);
        expect(safe).not.toMatch(TERMINAL_CONTROLS);
        expect(safe).not.toMatch(BIDI);
        if (layout === 'line') expect(safe).not.toMatch(/[\n\t]/);
        expect(terminalSafe(safe, layout)).toBe(safe);
      }),
    );
  });
});
