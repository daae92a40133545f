import { describe, expect, it } from 'vitest';
import { LoginTwoFactorBody } from '../../../contract/two-factor';
import { TWO_FACTOR_MESSAGES } from '../../../contract/sign-in';
import { LoginTwoFactorForm } from './twoFactorSchema';

/** The first message of each field, as useSchemaForm shows them. */
function messages(values: Record<string, string>) {
  const result = LoginTwoFactorForm.safeParse(values);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [String(i.path[0]), i.message]));
}

describe("sign-in's second step, checked by the contract", () => {
  it('an empty field asks for what the chosen mode takes, on the code field', () => {
    expect(messages({ mode: 'app', code: ' ' })).toEqual({ code: TWO_FACTOR_MESSAGES.codeRequired });
    expect(messages({ mode: 'recovery', code: '' })).toEqual({ code: TWO_FACTOR_MESSAGES.codeOrRecoveryRequired });
    // the server, which does not know the mode, asks for either
    expect(LoginTwoFactorBody.safeParse({ challenge: 'c', code: '' }).error?.issues[0]?.message).toBe(
      TWO_FACTOR_MESSAGES.codeOrRecoveryRequired,
    );
  });

  it("hands on the code as the server's body takes it, without the spaces of an app's display", () => {
    const { code } = LoginTwoFactorForm.parse({ mode: 'app', code: '123 456' });
    expect(code).toBe('123456');
    expect(LoginTwoFactorBody.parse({ challenge: 'c', code }).code).toBe('123456');
    expect(LoginTwoFactorForm.parse({ mode: 'recovery', code: ' abcd-efgh-ijkl ' }).code).toBe('abcd-efgh-ijkl');
  });
});
