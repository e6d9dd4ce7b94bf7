// Assertions on RFC 9457 problem+json answers: status, content type, the stable code and the body shape.
import { expect } from 'vitest';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  code: string;
  detail: string;
  errors?: { pointer: string; detail: string }[];
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

/** Asserts the whole problem shape and returns the body for further checks. */
export async function expectProblem(res: Response, status: number, code: string, pointer?: string): Promise<ProblemBody> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const body = JSON.parse(text) as ProblemBody;
  expect(body).toMatchObject({ type: 'about:blank', title: TITLES[status], status, code });
  expect(typeof body.detail).toBe('string');
  expect(body.detail.length).toBeGreaterThan(0);
  if (pointer !== undefined) {
    expect(body.errors?.map((e) => e.pointer)).toContain(pointer);
    for (const error of body.errors!) expect(typeof error.detail).toBe('string');
  }
  return body;
}
