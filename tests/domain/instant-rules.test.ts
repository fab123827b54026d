/**
 * The instant-certificate evaluator as an office would read it: what a condition means on an empty field, a period,
 * a group; what a rule that cannot be evaluated says; what free text stops an issue.
 */
import { describe, expect, it } from 'vitest';
import {
  checkedAfterIssue, evaluateRule, FREE_TEXT_GUARDED, INSTANT_MESSAGES, instantActorName, requestFacts, RULE_FIELDS, ruleProblems, unreadFreeText,
  type RuleGroup,
} from '../../domain';

const TZ = 'America/Los_Angeles';
const event = (fields: Record<string, unknown> = {}, documentCount = 1) => requestFacts({
  certificateType: 'Event', employerType: 'internal', requesterCompany: null, submitDate: '2026-04-01T17:00:00.000Z', documentCount,
  fields: { eventType: 'Picnic', eventPatientCare: 'No', eventStartDate: '2026-04-10T11:00:00.000Z', eventEndDate: '2026-04-12T11:00:00.000Z', ...fields },
}, TZ);
const all = (...rules: RuleGroup['rules']): RuleGroup => ({ combinator: 'and', rules });

describe('facts a rule reads', () => {
  it('period length and lead time in office days; empty text is empty, not missing', () => {
    const facts = event();
    expect(facts).toMatchObject({ periodDays: 3, daysUntilStart: 9, documentCount: 1, requesterType: 'internal', requesterCompany: '', eventName: '' });
  });
  it('a period the request does not give is unknown: every comparison fails but "is empty"', () => {
    const facts = event({ eventStartDate: null });
    for (const operator of ['=', '!=', '<', '<=', '>', '>=']) {
      expect(evaluateRule(all({ field: 'periodDays', operator, value: 3 }), facts).matches, operator).toBe(false);
    }
    expect(evaluateRule(all({ field: 'periodDays', operator: 'null' }), facts).matches).toBe(true);
  });
  it('every field a rule may name is one of a certificate form, or derived; claim history has none', () => {
    expect(RULE_FIELDS.every((f) => f.kinds.length > 0)).toBe(true);
    expect(ruleProblems(all({ field: 'releaseAuthorized', operator: '=', value: true }), ['Event'])).toEqual([INSTANT_MESSAGES.unknownField('releaseAuthorized')]);
  });
});

describe('evaluating', () => {
  it('and, or, not, one of, none of, with the first thing it needs in words', () => {
    const facts = event();
    expect(evaluateRule(all({ field: 'eventType', operator: 'in', value: ['Picnic', 'Fair'] }, { field: 'periodDays', operator: '<=', value: 3 }), facts))
      .toEqual({ matches: true, stoppedBy: null });
    expect(evaluateRule(all({ field: 'eventPatientCare', operator: '=', value: 'Yes' }), facts).stoppedBy)
      .toBe('needs "Will patient care be provided at the event?" is Yes');
    expect(evaluateRule({ combinator: 'or', rules: [{ field: 'eventType', operator: '=', value: 'Fair' }, { field: 'documentCount', operator: '>=', value: 2 }] }, facts).stoppedBy)
      .toBe('needs "Event Type" is Fair or "Documents attached" is at least 2');
    expect(evaluateRule({ combinator: 'and', not: true, rules: [{ field: 'eventType', operator: 'notIn', value: ['Fair'] }] }, facts).matches).toBe(false);
    expect(evaluateRule(all({ field: 'eventName', operator: '!=', value: 'Gala' }), facts).matches).toBe(true); // empty is not "Gala"
  });
});

describe('rules that cannot be evaluated', () => {
  it('are refused with every reason, never crash', () => {
    expect(ruleProblems(all({ field: 'eventType', operator: '=', value: 'Rodeo' }), ['Event'])).toEqual([INSTANT_MESSAGES.badValue('Event Type')]);
    expect(ruleProblems(all({ field: 'periodDays', operator: 'in', value: [1] }), ['Event'])).toEqual([INSTANT_MESSAGES.unknownOperator('Length of the period (days)', 'in')]);
    expect(ruleProblems({ combinator: 'and', rules: [null] } as unknown as RuleGroup, ['Event'])).toEqual([INSTANT_MESSAGES.unknownField('null')]);
    expect(ruleProblems({ combinator: 'and', rules: [] }, ['Event'])).toEqual([INSTANT_MESSAGES.conditionsRequired]);
    expect(ruleProblems('not a rule', ['Event'])).toEqual([INSTANT_MESSAGES.conditionsRequired]);
  });
});

describe('guards', () => {
  it('free text out of the ordinary stops an issue unless the rule names its field', () => {
    expect([...FREE_TEXT_GUARDED]).toEqual(expect.arrayContaining(['eventPatientCareDetail', 'reasonOther', 'vehicleLocationOther']));
    const facts = event({ eventPatientCareDetail: 'A nurse on site' });
    expect(unreadFreeText(all({ field: 'eventType', operator: '=', value: 'Picnic' }), facts)).toBe('Describe the patient care and who provides it');
    expect(unreadFreeText(all({ field: 'eventPatientCareDetail', operator: 'notNull' }), facts)).toBeNull();
  });
  it('one in N of what a rule issued is checked; the actor names the rule and its version', () => {
    expect([1, 2, 3, 4, 5, 6].filter((n) => checkedAfterIssue(n, 3))).toEqual([3, 6]);
    expect([1, 2, 3].filter((n) => checkedAfterIssue(n, 0))).toEqual([]);
    expect(instantActorName('Standard events', 4)).toBe('Rule: Standard events v4');
  });
});
