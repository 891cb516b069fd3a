import { describe, expect, it } from 'vitest';
import { SheetXmlError, SheetXmlReader } from './sheet-xml.js';

type Event = ['open', string, Record<string, string>] | ['text', string] | ['close', string];

/** Every event of a document fed in the given chunks (text always asked for). */
function eventsOf(
  chunks: readonly string[],
  attributeNames: readonly string[] = ['r', 's', 't', 'a'],
): Event[] {
  const events: Event[] = [];
  const reader = new SheetXmlReader({
    open(name, attributes) {
      const found: Record<string, string> = {};
      for (const attribute of attributeNames) {
        const value = attributes.get(attribute);
        if (value !== undefined) found[attribute] = value;
      }
      events.push(['open', name, found]);
    },
    wantsText: () => true,
    text(text) {
      const last = events.at(-1);
      // Text may come in pieces where chunks end: joined, as a caller appending it sees it.
      if (last?.[0] === 'text') last[1] += text;
      else events.push(['text', text]);
    },
    close(name) {
      events.push(['close', name]);
    },
  });
  for (const chunk of chunks) reader.write(chunk);
  reader.end();
  return events;
}

const DOCUMENT = [
  '\uFEFF<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n',
  '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><!-- a comment, with <tags> -->',
  '<sheetData><row r="2" s = \'3\'><c r="A2" t="inlineStr"><is><t xml:space="preserve">Nguyễn &amp; Trần &lt;3 &#x1F600;&#65;</t></is></c>',
  '<c r="B2" a="x&quot;y&#9;z\tw"><v>1.5</v></c><c r="C2"/><c r="D2"><v><![CDATA[ignored]]>7</v></c></row>',
  '<row r="3"><c r="A3" t="str"><f>A2</f><v>line one\r\nline two\rthree</v></c></row></sheetData></worksheet>\n',
].join('');

const EXPECTED: Event[] = [
  ['open', 'worksheet', {}],
  ['open', 'sheetData', {}],
  ['open', 'row', { r: '2', s: '3' }],
  ['open', 'c', { r: 'A2', t: 'inlineStr' }],
  ['open', 'is', {}],
  ['open', 't', {}],
  ['text', 'Nguyễn & Trần <3 \u{1F600}A'],
  ['close', 't'],
  ['close', 'is'],
  ['close', 'c'],
  ['open', 'c', { r: 'B2', a: 'x"y\tz w' }],
  ['open', 'v', {}],
  ['text', '1.5'],
  ['close', 'v'],
  ['close', 'c'],
  ['open', 'c', { r: 'C2' }],
  ['close', 'c'],
  ['open', 'c', { r: 'D2' }],
  ['open', 'v', {}],
  ['text', '7'],
  ['close', 'v'],
  ['close', 'c'],
  ['close', 'row'],
  ['open', 'row', { r: '3' }],
  ['open', 'c', { r: 'A3', t: 'str' }],
  ['open', 'f', {}],
  ['text', 'A2'],
  ['close', 'f'],
  ['open', 'v', {}],
  ['text', 'line one\nline two\nthree'],
  ['close', 'v'],
  ['close', 'c'],
  ['close', 'row'],
  ['close', 'sheetData'],
  ['close', 'worksheet'],
];

describe('SheetXmlReader', () => {
  it('reads elements, attributes and text: references, line ends, comments, CDATA and the BOM', () => {
    expect(eventsOf([DOCUMENT])).toEqual(EXPECTED);
  });

  it('reads the same whatever the chunks: one character at a time, and cut at every place', () => {
    expect(eventsOf(Array.from({ length: DOCUMENT.length }, (_, index) => DOCUMENT.charAt(index)))).toEqual(
      EXPECTED,
    );
    for (let cut = 1; cut < DOCUMENT.length; cut++)
      expect(eventsOf([DOCUMENT.slice(0, cut), DOCUMENT.slice(cut)])).toEqual(EXPECTED);
  });

  it('checks text it is not asked for, without decoding it', () => {
    const seen: string[] = [];
    const reader = new SheetXmlReader({
      open: (name) => seen.push(name),
      wantsText: () => false,
      text: () => {
        throw new Error('not asked for');
      },
      close: () => undefined,
    });
    reader.write('<a>x &amp; y<b/></a>');
    reader.end();
    expect(seen).toEqual(['a', 'b']);
    const strict = new SheetXmlReader({
      open: () => undefined,
      wantsText: () => false,
      text: () => undefined,
      close: () => undefined,
    });
    expect(() => {
      strict.write('<a>&nbsp;</a>');
    }).toThrow(SheetXmlError);
  });

  const broken: [string, string][] = [
    ['a closing tag for another element', '<a><b></a></b>'],
    ['an element left open', '<a><b></b>'],
    ['no element at all', '  '],
    ['a second root element', '<a/><b/>'],
    ['a document type', '<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>'],
    ['an unknown entity', '<a>&nbsp;</a>'],
    ['a bare ampersand', '<a>fish & chips</a>'],
    ['a character reference XML forbids', '<a>&#1;</a>'],
    ['an unquoted attribute value', '<a r=1/>'],
    ['an attribute given twice', '<a r="1" r="2"/>'],
    ['attributes run together', '<a r="1"s="2"/>'],
    ['< in an attribute value', '<a r="<"/>'],
    ['a control character in text', '<a>\u0001</a>'],
    ['text outside the root element', '<a/>text'],
    [']]> in text', '<a>]]></a>'],
    ['a document cut inside a tag', '<a><b r="1"'],
  ];
  it.each(broken)('refuses %s', (_label, document) => {
    expect(() => eventsOf([document])).toThrow(SheetXmlError);
  });
});
