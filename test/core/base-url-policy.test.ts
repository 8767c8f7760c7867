// The one base-URL policy and its three users agreeing: the operator's configuration, a principal's stored
// settings and the browser form refuse the same URLs (credentials aside, which only the operator may use).
import { describe, expect, it } from 'vitest';
import { baseUrlProblem, MAX_BASE_URL_CHARS, normaliseBaseUrl } from '../../src/core/base-url-policy.ts';
import { resolveModelConfig } from '../../src/adapters/llm/config.ts';
import { baseUrlProblem as settingsProblem } from '../../src/engine/session/model-settings.ts';
import { baseUrlError } from '../../src/apps/web/lib/forms.ts';

const prefix = 'http://127.0.0.1:9/';
const atLimit = prefix + 'a'.repeat(MAX_BASE_URL_CHARS - prefix.length);

function operatorProblem(url: string): string | undefined {
  try {
    resolveModelConfig({ MNESOS_LLM_BASE_URL: url, MNESOS_MODEL: 'm' });
    return undefined;
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    return error.message;
  }
}

describe('baseUrlProblem', () => {
  it.each([
    [`${atLimit}a`, 'too-long'],
    ['not a url', 'not-a-url'],
    ['localhost:11434', 'not-http'],
    ['ftp://127.0.0.1/v1', 'not-http'],
    ['file:///etc/passwd', 'not-http'],
    ['http://me:pw@127.0.0.1/v1', 'credentials'],
  ])('%s: %s', (url, kind) => {
    expect(baseUrlProblem(url, { allowCredentials: false })?.kind).toBe(kind);
  });

  it(`${MAX_BASE_URL_CHARS} characters is accepted, one more is not`, () => {
    expect(baseUrlProblem(atLimit, { allowCredentials: false })).toBeUndefined();
    expect(baseUrlProblem(`${atLimit}a`, { allowCredentials: true })?.message).toContain(
      'MAX_BASE_URL_CHARS',
    );
  });

  it('credentials are allowed only when the rules say so', () => {
    expect(baseUrlProblem('http://me:pw@127.0.0.1/v1', { allowCredentials: true })).toBeUndefined();
  });

  it('normalising strips trailing slashes only, and a long run of them at once', () => {
    expect(normaliseBaseUrl('http://127.0.0.1:9/v1///')).toBe('http://127.0.0.1:9/v1');
    expect(normaliseBaseUrl('http://127.0.0.1:9/v1')).toBe('http://127.0.0.1:9/v1');
    expect(normaliseBaseUrl(`http://h/${'/'.repeat(2000)}`)).toBe('http://h');
  });
});

describe('the three users apply the same policy', () => {
  it.each([`${atLimit}a`, 'not a url', 'localhost:11434', 'ftp://127.0.0.1/v1'])(
    '%s is refused by all',
    (url) => {
      expect(operatorProblem(url)).toContain('MNESOS_LLM_BASE_URL');
      expect(settingsProblem(url)).toBeDefined();
      expect(baseUrlError(url)).not.toBe('');
    },
  );

  it.each(['http://127.0.0.1:11434/v1', 'https://models.localhost/v1/', atLimit])(
    '%s is accepted by all',
    (url) => {
      expect(operatorProblem(url)).toBeUndefined();
      expect(settingsProblem(url)).toBeUndefined();
      expect(baseUrlError(url)).toBe('');
    },
  );

  it('credentials: the operator may put them in its own configuration; a stored setting may not', () => {
    const url = 'http://me:pw@127.0.0.1:9/v1';
    expect(operatorProblem(url)).toBeUndefined();
    expect(settingsProblem(url)).toContain('user name or password');
    expect(baseUrlError(url)).toContain('user name or password');
  });
});
