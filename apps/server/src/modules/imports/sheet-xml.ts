/**
 * A streaming reader of the XML of one worksheet: elements (name and attributes), text and the
 * end of elements, in document order, from text that arrives in chunks. Made for the bulk import,
 * whose sheets are hundreds of megabytes of <row> and <c> elements: one pass over the characters,
 * nothing allocated per element beyond its name and attribute values.
 *
 * It reads what a well-formed sheet holds and refuses the rest (SheetXmlError): elements must
 * nest, attribute values must be quoted, the only entities are the five of XML and character
 * references, characters XML forbids are refused, a document type declaration (where entity
 * expansion attacks live) is refused. Comments and processing instructions are skipped; CDATA
 * sections are skipped too, as the XML parser exceljs feeds its worksheet reader from reports
 * them apart and that reader ignores them. Text is given with XML's line-end handling (CR LF and
 * CR read as LF), attribute values with XML's normalisation (tab, LF and CR read as spaces).
 */

export class SheetXmlError extends Error {
  constructor(message: string) {
    super(`unreadable sheet XML: ${message}`);
    this.name = 'SheetXmlError';
  }
}

/** The attributes of the element being opened (valid during SheetXmlHandler.open only). */
export interface SheetXmlAttributes {
  get(name: string): string | undefined;
}

export interface SheetXmlHandler {
  open(name: string, attributes: SheetXmlAttributes): void;
  /** Whether text at this point matters: when it does not, it is checked but not decoded. */
  wantsText(): boolean;
  /** Text between tags, references decoded. */
  text(text: string): void;
  /** An element ends (also right after open for <empty/>). */
  close(name: string): void;
}

const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** A code point XML 1.0 allows in a document (Char). */
function isXmlCharacter(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

/** Decodes the entity and character references of text or of an attribute value. */
export function decodeXml(text: string): string {
  let result = '';
  let from = 0;
  for (;;) {
    const start = text.indexOf('&', from);
    if (start === -1) break;
    const end = text.indexOf(';', start);
    if (end === -1) throw new SheetXmlError('an & that starts no reference');
    const name = text.slice(start + 1, end);
    let decoded: string | undefined;
    if (name.startsWith('#')) {
      const isHex = name[1] === 'x';
      const digits = name.slice(isHex ? 2 : 1);
      const code =
        digits !== '' && (isHex ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/).test(digits)
          ? Number.parseInt(digits, isHex ? 16 : 10)
          : Number.NaN;
      if (isXmlCharacter(code)) decoded = String.fromCodePoint(code);
    } else {
      decoded = NAMED_ENTITIES[name];
    }
    if (decoded === undefined) throw new SheetXmlError(`unknown reference &${name};`);
    result += text.slice(from, start) + decoded;
    from = end + 1;
  }
  return result + text.slice(from);
}

const isSpace = (code: number) => code === 0x20 || code === 0x9 || code === 0xa || code === 0xd;
/** A control character XML forbids, or U+FFFE / U+FFFF. */
const isForbidden = (code: number) =>
  (code < 0x20 && code !== 0x9 && code !== 0xa && code !== 0xd) || code === 0xfffe || code === 0xffff;

const INCOMPLETE = -1;

/**
 * The names a sheet repeats in every cell and row, handed out as the same strings rather than cut
 * from the text each time (millions of small strings for a large file).
 */
function nameAt(buffer: string, start: number, end: number): string {
  switch (end - start) {
    case 1:
      switch (buffer.charCodeAt(start)) {
        case 0x63:
          return 'c';
        case 0x76:
          return 'v';
        case 0x74:
          return 't';
        case 0x66:
          return 'f';
        case 0x72:
          return 'r';
        case 0x73:
          return 's';
        default:
          break;
      }
      break;
    case 2:
      if (buffer.startsWith('is', start)) return 'is';
      break;
    case 3:
      if (buffer.startsWith('row', start)) return 'row';
      break;
    default:
      break;
  }
  return buffer.slice(start, end);
}

export class SheetXmlReader implements SheetXmlAttributes {
  private buffer = '';
  private readonly open: string[] = [];
  private sawRoot = false;
  private started = false;
  // The attributes of the element being opened, reused from element to element.
  private readonly attributeNames: string[] = [];
  private readonly attributeValues: string[] = [];
  private attributeCount = 0;
  private isEmptyElement = false;
  private elementName = '';

  constructor(private readonly handler: SheetXmlHandler) {}

  get(name: string): string | undefined {
    for (let index = 0; index < this.attributeCount; index++)
      if (this.attributeNames[index] === name) return this.attributeValues[index];
    return undefined;
  }

  /** Reads a chunk; what cannot be read yet (a tag cut in two) waits for the next one. */
  write(chunk: string): void {
    let buffer = this.buffer === '' ? chunk : this.buffer + chunk;
    if (!this.started && buffer.length > 0) {
      this.started = true;
      if (buffer.charCodeAt(0) === 0xfeff) buffer = buffer.slice(1);
    }
    const handler = this.handler;
    const length = buffer.length;
    let position = 0;
    while (position < length) {
      const lt = buffer.indexOf('<', position);
      if (lt === -1) break;
      if (lt > position) this.onText(buffer, position, lt);
      position = lt;
      if (lt + 1 >= length) break;
      const next = buffer.charCodeAt(lt + 1);
      if (next === 0x2f /* / */) {
        const end = buffer.indexOf('>', lt + 2);
        if (end === -1) break;
        const expected = this.open.pop();
        if (expected === undefined || !buffer.startsWith(expected, lt + 2))
          throw new SheetXmlError(`a closing tag that closes no open element`);
        for (let index = lt + 2 + expected.length; index < end; index++)
          if (!isSpace(buffer.charCodeAt(index)))
            throw new SheetXmlError(`a closing tag that closes no open element`);
        position = end + 1;
        handler.close(expected);
        continue;
      }
      if (next === 0x21 /* ! */) {
        let end: number;
        if (buffer.startsWith('<!--', lt)) {
          end = buffer.indexOf('-->', lt + 4);
          if (end === -1) break;
          position = end + 3;
        } else if (buffer.startsWith('<![CDATA[', lt)) {
          if (this.open.length === 0) throw new SheetXmlError('CDATA outside the root element');
          end = buffer.indexOf(']]>', lt + 9);
          if (end === -1) break;
          position = end + 3;
        } else if (length - lt < 9) {
          break;
        } else {
          throw new SheetXmlError('a document type or other declaration');
        }
        continue;
      }
      if (next === 0x3f /* ? */) {
        const end = buffer.indexOf('?>', lt + 2);
        if (end === -1) break;
        position = end + 2;
        continue;
      }
      const end = this.readTag(buffer, lt);
      if (end === INCOMPLETE) break;
      position = end;
      const name = this.elementName;
      if (this.open.length === 0) {
        if (this.sawRoot) throw new SheetXmlError('a second root element');
        this.sawRoot = true;
      }
      handler.open(name, this);
      if (this.isEmptyElement) handler.close(name);
      else this.open.push(name);
    }
    this.buffer = position < length ? buffer.slice(position) : '';
  }

  /** The document has ended: anything left unread or unclosed is an error. */
  end(): void {
    const rest = this.buffer;
    this.buffer = '';
    if (rest.includes('<')) throw new SheetXmlError('the document ends inside a tag');
    if (rest !== '') this.onText(rest, 0, rest.length);
    if (!this.sawRoot) throw new SheetXmlError('no root element');
    if (this.open.length > 0) throw new SheetXmlError(`<${this.open.at(-1) ?? ''}> is not closed`);
  }

  /**
   * Reads the start tag at `lt` (its name and attributes into this reader); the position after
   * its > or INCOMPLETE when the tag has not fully arrived.
   */
  private readTag(buffer: string, lt: number): number {
    const length = buffer.length;
    let index = lt + 1;
    while (index < length) {
      const code = buffer.charCodeAt(index);
      if (isSpace(code) || code === 0x2f || code === 0x3e) break;
      if (code === 0x22 || code === 0x27 || code === 0x3d || code === 0x3c || code === 0x26)
        throw new SheetXmlError('an element without a proper name');
      index++;
    }
    if (index >= length) return INCOMPLETE;
    if (index === lt + 1) throw new SheetXmlError('an element without a name');
    const name = nameAt(buffer, lt + 1, index);
    let count = 0;
    for (;;) {
      const before = index;
      while (index < length && isSpace(buffer.charCodeAt(index))) index++;
      if (index >= length) return INCOMPLETE;
      const code = buffer.charCodeAt(index);
      if (code === 0x3e /* > */) {
        this.finishTag(name, count, false);
        return index + 1;
      }
      if (code === 0x2f /* / */) {
        if (index + 1 >= length) return INCOMPLETE;
        if (buffer.charCodeAt(index + 1) !== 0x3e) throw new SheetXmlError('/ inside a tag');
        this.finishTag(name, count, true);
        return index + 2;
      }
      if (index === before) throw new SheetXmlError('attributes without a space between them');
      const nameStart = index;
      while (index < length) {
        const character = buffer.charCodeAt(index);
        if (character === 0x3d || isSpace(character)) break;
        if (
          character === 0x22 ||
          character === 0x27 ||
          character === 0x3c ||
          character === 0x3e ||
          character === 0x2f ||
          character === 0x26
        )
          throw new SheetXmlError('a bad attribute name');
        index++;
      }
      if (index >= length) return INCOMPLETE;
      const attributeName = nameAt(buffer, nameStart, index);
      while (index < length && isSpace(buffer.charCodeAt(index))) index++;
      if (index >= length) return INCOMPLETE;
      if (buffer.charCodeAt(index) !== 0x3d) throw new SheetXmlError('an attribute without a value');
      index++;
      while (index < length && isSpace(buffer.charCodeAt(index))) index++;
      if (index >= length) return INCOMPLETE;
      const quote = buffer.charCodeAt(index);
      if (quote !== 0x22 && quote !== 0x27) throw new SheetXmlError('an unquoted attribute value');
      const close = buffer.indexOf(quote === 0x22 ? '"' : "'", index + 1);
      if (close === -1) return INCOMPLETE;
      let needsDecoding = false;
      let needsSpaces = false;
      for (let at = index + 1; at < close; at++) {
        const character = buffer.charCodeAt(at);
        if (character === 0x26) needsDecoding = true;
        else if (character === 0x3c) throw new SheetXmlError('< in an attribute value');
        else if (character === 0x9 || character === 0xa || character === 0xd) needsSpaces = true;
        else if (isForbidden(character)) throw new SheetXmlError('a character XML does not allow');
      }
      let value = buffer.slice(index + 1, close);
      if (needsSpaces) value = value.replace(/[\t\n\r]/g, ' ');
      if (needsDecoding) value = decodeXml(value);
      for (let other = 0; other < count; other++)
        if (this.attributeNames[other] === attributeName)
          throw new SheetXmlError(`attribute ${attributeName} given twice`);
      this.attributeNames[count] = attributeName;
      this.attributeValues[count] = value;
      count++;
      index = close + 1;
    }
  }

  private finishTag(name: string, count: number, isEmpty: boolean): void {
    this.elementName = name;
    this.attributeCount = count;
    this.isEmptyElement = isEmpty;
  }

  private onText(buffer: string, from: number, to: number): void {
    let needsDecoding = false;
    let hasReturn = false;
    let isBlank = true;
    for (let index = from; index < to; index++) {
      const code = buffer.charCodeAt(index);
      if (code === 0x26) needsDecoding = true;
      else if (code === 0xd) hasReturn = true;
      else if (code === 0x3e && index >= from + 2 && buffer.startsWith(']]', index - 2))
        throw new SheetXmlError(']]> in text');
      else if (isForbidden(code)) throw new SheetXmlError('a character XML does not allow');
      if (isBlank && !isSpace(code)) isBlank = false;
    }
    if (this.open.length === 0) {
      if (!isBlank) throw new SheetXmlError('text outside the root element');
      return;
    }
    if (!this.handler.wantsText()) {
      if (needsDecoding) decodeXml(buffer.slice(from, to));
      return;
    }
    let text = buffer.slice(from, to);
    if (hasReturn) text = text.replace(/\r\n?/g, '\n');
    if (needsDecoding) text = decodeXml(text);
    this.handler.text(text);
  }
}
