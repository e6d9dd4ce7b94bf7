// Turns typia's error paths ("$input.events[3].type") into RFC 6901 JSON pointers ("/events/3/type").

const SEGMENT = /\.([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g;

function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function typiaPathToPointer(path: string, prefix = ''): string {
  const rest = path.startsWith('$input') ? path.slice('$input'.length) : path;
  let pointer = prefix;
  for (const match of rest.matchAll(SEGMENT)) {
    const token = match[1] ?? match[2] ?? (JSON.parse(match[3]!) as string);
    pointer += '/' + escapeToken(token);
  }
  return pointer;
}
