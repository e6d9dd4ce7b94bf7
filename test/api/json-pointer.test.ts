import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { typiaPathToPointer } from '../../src/api/json-pointer.js';

/** RFC 6901 decoding of a pointer into its reference tokens. */
function tokens(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

describe('typiaPathToPointer', () => {
  test('When a typia path has properties and indices, then it becomes a JSON pointer', () => {
    expect(typiaPathToPointer('$input.events[3].type')).toBe('/events/3/type');
    expect(typiaPathToPointer('$input')).toBe('');
    expect(typiaPathToPointer('$input.type', '/events/0')).toBe('/events/0/type');
  });

  test('When a key holds ~ or /, then they are escaped as ~0 and ~1', () => {
    expect(typiaPathToPointer('$input["a/b~c"]')).toBe('/a~1b~0c');
    expect(typiaPathToPointer('$input["~1"].x')).toBe('/~01/x');
  });

  test('When any keys are quoted as typia quotes them, then the pointer decodes back to the same keys', () => {
    const segment = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 8 }).map((key) => ({ key, path: `[${JSON.stringify(key)}]` })),
      fc.stringMatching(/^[A-Za-z_$][\w$]{0,6}$/).map((key) => ({ key, path: `.${key}` })),
      fc.nat({ max: 999 }).map((n) => ({ key: String(n), path: `[${n}]` })),
    );
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 5 }), fc.constantFrom('', '/events/1'), (segments, prefix) => {
        const pointer = typiaPathToPointer('$input' + segments.map((s) => s.path).join(''), prefix);
        expect(pointer.startsWith(prefix)).toBe(true);
        expect(tokens(pointer.slice(prefix.length))).toEqual(segments.map((s) => s.key));
      }),
      { numRuns: 300 },
    );
  });
});
