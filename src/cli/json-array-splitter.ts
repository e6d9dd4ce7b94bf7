// Splits a JSON import file — an array, or an object holding one under a key — into the text of
// each element, chunk by chunk, so that each record is judged alone and at most one is held.
// It only finds element boundaries (strings, escapes, nesting); JSON.parse judges each element.
import type { FileRecord } from './file-record.js';

/** An element longer than this is refused without being held (the API takes ≤ 512 KiB a batch). */
export const MAX_ELEMENT_CHARS = 1 << 20;

const enum Mode {
  /** Before the top-level value. */
  Start,
  /** Inside the top-level object, looking for `"<key>": [`. */
  Object,
  /** Inside the records array, between elements. */
  Array,
  /** Inside an element. */
  Element,
  /** After the records array: the rest must be whitespace (top-level array) or is skipped (object). */
  After,
  /** A fault ended the scan; the rest is ignored. */
  Stopped,
}

const LF = 10;
const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const BOM = 0xfeff;

function isWhitespace(c: number): boolean {
  return c === 32 || c === LF || c === 13 || c === 9;
}

export class JsonArraySplitter {
  readonly #key: string;
  #mode = Mode.Start;
  /** Line of the next character (1-based, counted by LF). */
  #line = 1;
  #inString = false;
  #escaped = false;
  /** Nesting inside the current element, or inside the top-level object (1 = its own members). */
  #depth = 0;
  #topIsObject = false;
  /** Object mode: the member name being read, the last one read, and the one whose value comes next. */
  #name: string[] | undefined;
  #lastName: string | undefined;
  #valueOf: string | undefined;
  #afterColon = false;
  /** Element mode: where it started, its text so far (undefined once over the cap). */
  #elementLine = 0;
  #parts: string[] | undefined = [];
  #length = 0;
  /** Array mode: whether an element came since the last comma (or the opening bracket). */
  #sawElement = false;
  #commaLine = 0;

  constructor(key: string) {
    this.#key = key;
  }

  /** Feeds the next chunk of text; yields the records (and faults) it completes. */
  *push(text: string): Generator<FileRecord> {
    let elementStart = this.#mode === Mode.Element ? 0 : -1;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.#mode === Mode.Element) {
        if (c === LF) this.#line++;
        if (this.#inString) {
          if (this.#escaped) this.#escaped = false;
          else if (c === BACKSLASH) this.#escaped = true;
          else if (c === QUOTE) this.#inString = false;
          continue;
        }
        if (c === QUOTE) this.#inString = true;
        else if (c === OPEN_BRACE || c === OPEN_BRACKET) this.#depth++;
        else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && this.#depth > 0) this.#depth--;
        else if (this.#depth === 0 && (c === COMMA || c === CLOSE_BRACKET)) {
          this.#keep(text, elementStart, i);
          elementStart = -1;
          yield this.#finishElement();
          this.#mode = Mode.Array;
          if (c === COMMA) this.#comma();
          else this.#mode = Mode.After;
        }
        continue;
      }
      if (c === LF) {
        this.#line++;
        continue;
      }
      switch (this.#mode) {
        case Mode.Start:
          if (isWhitespace(c) || c === BOM) break;
          if (c === OPEN_BRACKET) {
            this.#mode = Mode.Array;
          } else if (c === OPEN_BRACE) {
            this.#mode = Mode.Object;
            this.#topIsObject = true;
            this.#depth = 1;
          } else {
            yield this.#stop(`not a JSON array or an object holding "${this.#key}": [...]`);
          }
          break;
        case Mode.Object: {
          const found = this.#scanObject(c, text, i);
          if (found === 'records') this.#mode = Mode.Array;
          else if (found === 'end') yield this.#stop(`the object has no "${this.#key}" array`);
          break;
        }
        case Mode.Array:
          if (isWhitespace(c)) break;
          if (c === CLOSE_BRACKET) {
            if (!this.#sawElement && this.#commaLine > 0) yield { line: this.#commaLine, error: 'a comma with no record after it' };
            this.#mode = Mode.After;
          } else if (c === COMMA) {
            if (!this.#sawElement) yield { line: this.#line, error: 'a comma with no record before it' };
            this.#comma();
          } else {
            this.#mode = Mode.Element;
            this.#sawElement = true;
            this.#elementLine = this.#line;
            this.#parts = [];
            this.#length = 0;
            this.#depth = 0;
            elementStart = i;
            i--; // the element's first character goes through the element scan
          }
          break;
        case Mode.After:
          if (!this.#topIsObject && !isWhitespace(c)) yield this.#stop('unexpected text after the array');
          break;
        case Mode.Stopped:
          return;
      }
    }
    if (this.#mode === Mode.Element) this.#keep(text, elementStart, text.length);
  }

  /** Call at the end of the file: yields the fault of a file that ends too early. */
  *end(): Generator<FileRecord> {
    switch (this.#mode) {
      case Mode.Start:
        yield this.#stop('empty file: expected a JSON array');
        break;
      case Mode.Object:
        yield this.#stop(`the file ends before a "${this.#key}" array`);
        break;
      case Mode.Element: {
        // A last record that is whole counts; the missing ']' is a fault of its own.
        const last = this.#finishElement();
        if (last.error === undefined) {
          yield last;
          yield this.#stop("the file ends before the array is closed with ']'");
        } else {
          yield { line: last.line, error: 'the file ends inside this record' };
          this.#mode = Mode.Stopped;
        }
        break;
      }
      case Mode.Array:
        yield this.#stop("the file ends before the array is closed with ']'");
        break;
      default:
        break;
    }
  }

  #stop(error: string): FileRecord {
    this.#mode = Mode.Stopped;
    return { line: this.#line, error };
  }

  #comma(): void {
    this.#sawElement = false;
    this.#commaLine = this.#line;
  }

  /** Keeps text[from, to) of the current element, or only counts it once the element is over the cap. */
  #keep(text: string, from: number, to: number): void {
    if (from < 0 || to <= from) return;
    this.#length += to - from;
    if (this.#parts === undefined) return;
    if (this.#length > MAX_ELEMENT_CHARS) this.#parts = undefined;
    else this.#parts.push(text.slice(from, to));
  }

  #finishElement(): FileRecord {
    const line = this.#elementLine;
    this.#inString = false;
    this.#escaped = false;
    if (this.#parts === undefined) return { line, error: `a record longer than ${MAX_ELEMENT_CHARS} characters` };
    const text = this.#parts.join('');
    this.#parts = [];
    try {
      return { line, value: JSON.parse(text) as unknown };
    } catch (error) {
      return { line, error: `not valid JSON (${(error as Error).message})` };
    }
  }

  /**
   * Object mode, one character: tracks member names at depth 1 and nesting below it. Returns
   * 'records' at the `[` that opens the key's array, 'end' when the object closes without one.
   */
  #scanObject(c: number, text: string, i: number): 'records' | 'end' | undefined {
    if (this.#inString) {
      if (this.#escaped) this.#escaped = false;
      else if (c === BACKSLASH) this.#escaped = true;
      else if (c === QUOTE) {
        this.#inString = false;
        if (this.#name !== undefined) {
          this.#lastName = this.#name.join('');
          this.#name = undefined;
        }
        return undefined;
      }
      if (this.#name !== undefined) this.#name.push(text[i]!);
      return undefined;
    }
    if (c === QUOTE) {
      this.#inString = true;
      if (this.#depth === 1 && !this.#afterColon) this.#name = [];
    } else if (this.#depth === 1 && c === COLON) {
      this.#valueOf = this.#lastName;
      this.#afterColon = true;
    } else if (this.#depth === 1 && c === COMMA) {
      this.#valueOf = undefined;
      this.#afterColon = false;
    } else if (c === OPEN_BRACKET && this.#depth === 1 && this.#valueOf === this.#key) {
      return 'records';
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      this.#depth++;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      this.#depth--;
      if (this.#depth === 0) return 'end';
    }
    return undefined;
  }
}
