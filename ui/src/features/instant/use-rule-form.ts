/**
 * The rule editor's state and its Save: a new rule (it starts switched off) or a new version made on the version the
 * editor opened (a rule saved by someone else meanwhile answers 409, whose message is shown). The server judges the
 * rule (domain/instant-rules.ts `ruleProblems`); its messages go under name, types and conditions.
 */
import { useState } from 'react';
import type { RuleGroupType } from 'react-querybuilder';
import { INSTANT_DEFAULTS, INSTANT_LIMITS, type RuleGroup } from '../../../../domain';
import { ApiError } from '../../lib/api-error';
import { useSaveRule, type InstantRule, type RuleBody } from './instant-api';

const EMPTY_QUERY: RuleGroupType = { combinator: 'and', rules: [] };
const FIELDS = ['name', 'kinds', 'conditions', 'checkEvery', 'dailyCap'];

const wholeNumber = (text: string, max: number): number | null => (/^\d+$/.test(text.trim()) && Number(text) <= max ? Number(text) : null);
const numberMessage = (max: number) => `Enter a whole number from 0 to ${max.toLocaleString('en-US')}`;

export function useRuleForm(rule: InstantRule | null) {
  const [name, setName] = useState(rule?.name ?? '');
  const [kinds, setKinds] = useState<string[]>(rule?.kinds ?? []);
  const [checkEvery, setCheckEvery] = useState(String(rule?.checkEvery ?? INSTANT_DEFAULTS.checkEvery));
  const [dailyCap, setDailyCap] = useState(String(rule?.dailyCap ?? INSTANT_DEFAULTS.dailyCap));
  const [conditions, setConditions] = useState<RuleGroupType>(() => (rule ? (rule.conditions as unknown as RuleGroupType) : EMPTY_QUERY));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const save = useSaveRule();

  /** What is sent for a save or a simulation (numbers that are not yet numbers go as the defaults' absence). */
  const body = (): RuleBody => {
    const every = wholeNumber(checkEvery, INSTANT_LIMITS.checkEveryMax);
    const cap = wholeNumber(dailyCap, INSTANT_LIMITS.dailyCapMax);
    return {
      name, kinds: kinds as RuleBody['kinds'], conditions: conditions as unknown as RuleGroup,
      ...(every === null ? {} : { checkEvery: every }), ...(cap === null ? {} : { dailyCap: cap }),
    };
  };

  async function submit(): Promise<InstantRule | null> {
    const found: Record<string, string> = {};
    if (wholeNumber(checkEvery, INSTANT_LIMITS.checkEveryMax) === null) found.checkEvery = numberMessage(INSTANT_LIMITS.checkEveryMax);
    if (wholeNumber(dailyCap, INSTANT_LIMITS.dailyCapMax) === null) found.dailyCap = numberMessage(INSTANT_LIMITS.dailyCapMax);
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length) return null;
    try {
      return await save.mutateAsync({ id: rule?.id ?? null, version: rule?.version ?? null, body: body() });
    } catch (error) {
      const fields = error instanceof ApiError && error.code === 400 ? error.errors : {};
      setErrors(fields);
      if (!FIELDS.some((f) => fields[f])) setFailure(error instanceof Error ? error.message : String(error));
      return null;
    }
  }

  return {
    values: { name, kinds, checkEvery, dailyCap, conditions },
    set: { name: setName, kinds: setKinds, checkEvery: setCheckEvery, dailyCap: setDailyCap, conditions: setConditions },
    errors, failure, saving: save.isPending, submit, body,
  };
}
