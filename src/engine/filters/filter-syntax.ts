// The filter expression language (`vendor:"Acme" AND price < 50 AND NOT tag:clearance`): its syntax
// tree, a recursive-descent parser that names the position and the expected token of the first error,
// and the canonical text of a tree (parseFilter(formatFilter(e)) gives e back; cache keys use it).
//
//   expression := and ('OR' and)*
//   and        := unary ('AND' unary)*
//   unary      := 'NOT' unary | '(' expression ')' | term
//   term       := ('same' | 'different') ':' attribute
//               | attribute ':' value                 value: word, "quoted", number, true/false
//               | attribute ':' number '..' number     inclusive range
//               | attribute ':' factor 'x' '..' factor 'x'   range relative to the context product
//               | attribute operator number           operator: < <= > >= = !=
//
// Keywords are upper case (AND OR NOT); a lower-case `and` is a word. Bounded: MAX_FILTER_LENGTH
// characters and MAX_FILTER_DEPTH nested groups/NOTs, so a hostile string costs linear time and
// bounded stack.

export const MAX_FILTER_LENGTH = 512;
export const MAX_FILTER_DEPTH = 16;

export type ComparisonOperator = '<' | '<=' | '>' | '>=' | '=' | '!=';

interface At {
  /** Offset in the filter text (UTF-16 code units) where the node starts. */
  readonly position: number;
}

export type FilterExpression =
  | ({ readonly kind: 'and' | 'or'; readonly left: FilterExpression; readonly right: FilterExpression } & At)
  | ({ readonly kind: 'not'; readonly operand: FilterExpression } & At)
  /** attribute:value — the attribute holds the value (text, or a number's text, or true/false). */
  | ({ readonly kind: 'equals'; readonly attribute: string; readonly value: string } & At)
  | ({ readonly kind: 'compare'; readonly attribute: string; readonly operator: ComparisonOperator; readonly value: number } & At)
  /** attribute:low..high, both ends included. */
  | ({ readonly kind: 'range'; readonly attribute: string; readonly low: number; readonly high: number } & At)
  /** attribute:0.5x..2x — from low × to high × the context product's value, both ends included. */
  | ({ readonly kind: 'relativeRange'; readonly attribute: string; readonly low: number; readonly high: number } & At)
  /** same:attribute / different:attribute — shares a value with the context product, or not. */
  | ({ readonly kind: 'same' | 'different'; readonly attribute: string } & At);

/** Where a filter is wrong: the offset, what was expected there, and a sentence saying so. */
export interface FilterError {
  readonly position: number;
  readonly expected: string;
  readonly detail: string;
}

export type FilterParse = { ok: true; expression: FilterExpression } | { ok: false; error: FilterError };

type TokenKind = 'word' | 'string' | '(' | ')' | ':' | '..' | 'operator' | 'end';

interface Token {
  readonly kind: TokenKind;
  /** Words and operators as written; strings unescaped. */
  readonly text: string;
  readonly position: number;
}

/** Plain decimals only (no exponent): as many digits as the length bound allows, but finite. */
const NUMBER = /^-?\d+(\.\d+)?$/;
const FACTOR = /^\d+(\.\d+)?x$/;
const ATTRIBUTE = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const KEYWORDS = new Set(['AND', 'OR', 'NOT']);

/** Word characters: letters, digits, _ - . (a `..` ends a word: it is the range token). */
function isWordChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 45 || code === 46;
}

class FilterSyntaxFailure {
  constructor(readonly error: FilterError) {}
}

function fail(position: number, expected: string, found: string): never {
  throw new FilterSyntaxFailure({ position, expected, detail: `expected ${expected} at position ${position}, found ${found}` });
}

function describeToken(token: Token): string {
  if (token.kind === 'end') return 'the end of the filter';
  if (token.kind === 'string') return `"${token.text.slice(0, 40)}"`;
  return `'${token.text.slice(0, 40)}'`;
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === 32 || code === 9 || code === 10 || code === 13) {
      i++;
      continue;
    }
    const start = i;
    const char = text[i]!;
    if (char === '(' || char === ')' || char === ':') {
      tokens.push({ kind: char, text: char, position: start });
      i++;
    } else if (char === '.' && text[i + 1] === '.') {
      tokens.push({ kind: '..', text: '..', position: start });
      i += 2;
    } else if (char === '<' || char === '>' || char === '!' || char === '=') {
      const two = text.slice(i, i + 2);
      const operator = two === '<=' || two === '>=' || two === '!=' ? two : char === '!' ? undefined : char;
      if (operator === undefined) fail(start, "'!='", `'${two}'`);
      tokens.push({ kind: 'operator', text: operator, position: start });
      i += operator.length;
    } else if (char === '"') {
      let value = '';
      i++;
      for (;;) {
        if (i >= text.length) fail(i, 'a closing \'"\'', 'the end of the filter');
        const c = text[i]!;
        if (c === '"') break;
        if (c === '\\') {
          const next = text[i + 1];
          if (next !== '"' && next !== '\\') fail(i + 1, "'\"' or '\\' after '\\'", next === undefined ? 'the end of the filter' : `'${next}'`);
          value += next;
          i += 2;
        } else {
          value += c;
          i++;
        }
      }
      i++;
      tokens.push({ kind: 'string', text: value, position: start });
    } else if (isWordChar(code)) {
      while (i < text.length && isWordChar(text.charCodeAt(i)) && !(text[i] === '.' && text[i + 1] === '.')) i++;
      tokens.push({ kind: 'word', text: text.slice(start, i), position: start });
    } else {
      fail(start, 'an attribute, a value, an operator or a parenthesis', `'${char}'`);
    }
  }
  tokens.push({ kind: 'end', text: '', position: text.length });
  return tokens;
}

class Parser {
  #next = 0;
  #depth = 0;

  constructor(readonly tokens: readonly Token[]) {}

  get #token(): Token {
    return this.tokens[this.#next]!;
  }

  #isKeyword(word: string): boolean {
    return this.#token.kind === 'word' && this.#token.text === word;
  }

  parse(): FilterExpression {
    const expression = this.#or();
    if (this.#token.kind !== 'end') fail(this.#token.position, this.#token.kind === ')' ? "'AND', 'OR' or the end of the filter (unbalanced ')')" : "'AND', 'OR' or the end of the filter", describeToken(this.#token));
    return expression;
  }

  #or(): FilterExpression {
    let left = this.#and();
    while (this.#isKeyword('OR')) {
      this.#next++;
      left = { kind: 'or', left, right: this.#and(), position: left.position };
    }
    return left;
  }

  #and(): FilterExpression {
    let left = this.#unary();
    while (this.#isKeyword('AND')) {
      this.#next++;
      left = { kind: 'and', left, right: this.#unary(), position: left.position };
    }
    return left;
  }

  #unary(): FilterExpression {
    const token = this.#token;
    if (this.#isKeyword('NOT') || token.kind === '(') {
      if (++this.#depth > MAX_FILTER_DEPTH) fail(token.position, `at most ${MAX_FILTER_DEPTH} nested groups or NOTs`, describeToken(token));
      this.#next++;
      let expression: FilterExpression;
      if (token.kind === '(') {
        const inner = this.#or();
        if (this.#token.kind !== ')') fail(this.#token.position, "')'", describeToken(this.#token));
        this.#next++;
        expression = inner;
      } else {
        expression = { kind: 'not', operand: this.#unary(), position: token.position };
      }
      this.#depth--;
      return expression;
    }
    return this.#term();
  }

  #term(): FilterExpression {
    const name = this.#token;
    if (name.kind !== 'word' || KEYWORDS.has(name.text) || !ATTRIBUTE.test(name.text)) fail(name.position, "an attribute name, 'NOT' or '('", describeToken(name));
    this.#next++;
    const position = name.position;
    const after = this.#token;
    if (after.kind === 'operator') {
      this.#next++;
      const value = this.#number();
      return { kind: 'compare', attribute: name.text, operator: after.text as ComparisonOperator, value, position };
    }
    if (after.kind !== ':') fail(after.position, "':' or a comparison operator (< <= > >= = !=)", describeToken(after));
    this.#next++;
    if (name.text === 'same' || name.text === 'different') {
      const attribute = this.#token;
      if (attribute.kind !== 'word' || !ATTRIBUTE.test(attribute.text)) fail(attribute.position, 'an attribute name', describeToken(attribute));
      this.#next++;
      return { kind: name.text, attribute: attribute.text, position };
    }
    const value = this.#token;
    if (value.kind === 'string') {
      this.#next++;
      return { kind: 'equals', attribute: name.text, value: value.text, position };
    }
    if (value.kind !== 'word' || KEYWORDS.has(value.text)) fail(value.position, 'a value (a word, a "quoted string" or a number)', describeToken(value));
    this.#next++;
    if (this.#token.kind !== '..') return { kind: 'equals', attribute: name.text, value: value.text, position };
    this.#next++;
    const high = this.#token;
    if (FACTOR.test(value.text)) {
      if (high.kind !== 'word' || !FACTOR.test(high.text)) fail(high.position, 'a factor such as 2x', describeToken(high));
      this.#next++;
      const low = Number(value.text.slice(0, -1));
      const factor = Number(high.text.slice(0, -1));
      if (!Number.isFinite(low)) fail(value.position, 'a finite factor', describeToken(value));
      if (!Number.isFinite(factor)) fail(high.position, 'a finite factor', describeToken(high));
      return { kind: 'relativeRange', attribute: name.text, low, high: factor, position };
    }
    if (!NUMBER.test(value.text) || !Number.isFinite(Number(value.text))) fail(value.position, 'a number or a factor such as 0.5x before ..', describeToken(value));
    return { kind: 'range', attribute: name.text, low: Number(value.text), high: this.#number(), position };
  }

  #number(): number {
    const token = this.#token;
    if (token.kind !== 'word' || !NUMBER.test(token.text) || !Number.isFinite(Number(token.text))) fail(token.position, 'a number', describeToken(token));
    this.#next++;
    return Number(token.text);
  }
}

/** Parses a filter; never throws (a longer string than MAX_FILTER_LENGTH is an error at that position). */
export function parseFilter(text: string): FilterParse {
  if (text.length > MAX_FILTER_LENGTH) {
    return { ok: false, error: { position: MAX_FILTER_LENGTH, expected: `at most ${MAX_FILTER_LENGTH} characters`, detail: `a filter holds at most ${MAX_FILTER_LENGTH} characters: expected its end at position ${MAX_FILTER_LENGTH}` } };
  }
  try {
    return { ok: true, expression: new Parser(tokenize(text)).parse() };
  } catch (failure) {
    if (failure instanceof FilterSyntaxFailure) return { ok: false, error: failure.error };
    throw failure;
  }
}

/** A value as the parser reads it back: a bare word where it is one, else a quoted string. */
function formatValue(value: string): string {
  if (/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(value) && !KEYWORDS.has(value) && !FACTOR.test(value)) return value;
  return `"${value.replace(/[\\"]/g, (c) => '\\' + c)}"`;
}

/** Numbers as the grammar writes them: plain decimals (String's exponent form spelt out, digits unchanged). */
function formatNumber(value: number): string {
  if (Object.is(value, -0)) return '-0';
  const text = String(value);
  const e = text.indexOf('e');
  if (e < 0) return text;
  // Only tiny fractions print with an exponent here (the grammar's numbers stay below 1e16).
  const sign = text.startsWith('-') ? '-' : '';
  const mantissa = text.slice(sign.length, e);
  const digits = mantissa.replace('.', '');
  const exponent = Number(text.slice(e + 1));
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const point = mantissa.indexOf('.');
  const whole = point < 0 ? 1 : point;
  return sign + digits + '0'.repeat(exponent + whole - digits.length);
}

/** The canonical text of an expression: groups spelt out, one space around keywords and operators. */
export function formatFilter(expression: FilterExpression): string {
  switch (expression.kind) {
    case 'and':
    case 'or':
      return `(${formatFilter(expression.left)} ${expression.kind.toUpperCase()} ${formatFilter(expression.right)})`;
    case 'not':
      return `NOT ${formatFilter(expression.operand)}`;
    case 'equals':
      return `${expression.attribute}:${formatValue(expression.value)}`;
    case 'compare':
      return `${expression.attribute} ${expression.operator} ${formatNumber(expression.value)}`;
    case 'range':
      return `${expression.attribute}:${formatNumber(expression.low)}..${formatNumber(expression.high)}`;
    case 'relativeRange':
      return `${expression.attribute}:${formatNumber(expression.low)}x..${formatNumber(expression.high)}x`;
    case 'same':
    case 'different':
      return `${expression.kind}:${expression.attribute}`;
  }
}
