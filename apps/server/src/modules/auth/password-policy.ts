import { checkPassword, parsePasswordRule, passwordRuleForApp, type ClientApp, type PasswordRule } from '@rpm/contracts';
import type { SystemStore } from '../../db/database.js';
import { AppError } from '../../http/app-error.js';
import { readTenantSettings } from '../tenants/store.js';

export async function passwordRuleOf(system: SystemStore, tenantId: string): Promise<PasswordRule> {
  return parsePasswordRule((await readTenantSettings(system, tenantId)).get('PASSWORD_RULE'));
}

/** The rule for a password set from `app`: the patient app's own (spec §5), else the tenant's PASSWORD_RULE. */
export async function passwordRuleFor(system: SystemStore, tenantId: string, app: ClientApp | undefined): Promise<PasswordRule> {
  return passwordRuleForApp(app, await passwordRuleOf(system, tenantId));
}

/**
 * Refuses a password that breaks the tenant's rule, with the most specific code: characters
 * outside the allowed set, a common password, else "too weak" listing what is missing.
 */
export function assertAcceptablePassword(password: string, rule: PasswordRule, field = 'body.newPassword'): void {
  const problems = checkPassword(password, rule);
  if (problems.length === 0) return;
  const fieldErrors = problems.map((problem) => ({ field, code: problem, message: `validation.password.${problem}` }));
  if (problems.includes('invalidCharacters')) throw new AppError('password.invalidCharacters', { fieldErrors });
  if (problems.includes('common')) throw new AppError('password.common', { fieldErrors });
  throw new AppError('password.tooWeak', { fieldErrors });
}
