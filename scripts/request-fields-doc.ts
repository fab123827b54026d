/**
 * Writes docs/REQUEST-FIELDS.md from the request kinds' definitions (domain/request-kinds.ts), so the table never
 * drifts from the rules the API and the UI apply. `npm run docs:fields`; tests/domain checks the file is current.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  CERTIFICATE_KINDS, CREDENTIALING_KIND, MESSAGES, type Condition, type FieldDefinition, type RequestKindDefinition,
} from '../domain';

const condition = (c: Condition): string => {
  if ('context' in c) return 'the requester is external';
  if ('all' in c) return c.all.map(condition).join(' and ');
  return `${c.field} is ${c.equals.map((v) => `"${v}"`).join(' or ')}`;
};

const RULES: Record<FieldDefinition['kind'], (f: FieldDefinition) => string> = {
  text: (f) => `text, at most ${f.maxLength ?? 200}`,
  textarea: (f) => `text (several lines), at most ${f.maxLength}`,
  email: () => 'an email address',
  emailList: () => 'email addresses separated by spaces, commas or semicolons',
  phone: () => '503-123-1234 (formatted while typing)',
  date: () => 'mm/dd/yyyy, a real day',
  time: () => 'a time of day on the half hour (HH:mm, shown as 9:30 AM)',
  select: (f) => `one of: ${(f.options ?? []).join('; ')}`,
  yesNo: () => 'Yes or No',
  checkbox: (f) => (f.required ? 'must be checked' : 'checkbox'),
  year: () => 'four digits (19xx or 20xx)',
  vin: () => '17 letters and digits, no I, O or Q',
};

function requiredWhen(f: FieldDefinition): string {
  const shown = f.visibleWhen ? `shown when ${condition(f.visibleWhen)}` : '';
  const req = f.required === true ? 'always' : typeof f.required === 'object' ? `when ${condition(f.required)}` : 'no';
  if (f.adminOnly) return 'no (administrators only)';
  if (!shown) return req;
  return req === 'no' ? `no; ${shown}` : `yes, ${shown}`;
}

function messages(f: FieldDefinition): string {
  const list: string[] = [];
  if (f.required) list.push(MESSAGES.required);
  if (f.ruleMessage && f.kind !== 'text' && f.kind !== 'textarea') list.push(f.ruleMessage);
  if (f.maxLength && f.name !== 'middleInitial') list.push(`Maximum ${f.maxLength} characters`);
  if (f.name === 'middleInitial') list.push(f.ruleMessage!);
  return [...new Set(list)].join(' / ') || '—';
}

function kindTable(kind: RequestKindDefinition, heading: string): string {
  const rows = kind.sections.flatMap((s) => s.fields.map((f) =>
    `| ${s.title} | \`${f.name}\` | ${f.label} | ${requiredWhen(f)} | ${RULES[f.kind](f)} | ${messages(f)} |`));
  const periods = kind.periods.map((p) => `- \`${p.from}\` not after \`${p.to}\` (${'Start date cannot be after end date'} / ${'End date cannot be before start date'})${p.pastOnly ? '; neither before 07/01/2002 nor after today' : ''}${p.fromTime && p.toTime ? `; on one day, \`${p.fromTime}\` not after \`${p.toTime}\`` : ''}. Picked on one calendar: the first click sets the start, the second the end.`);
  return [
    `## ${heading}`, '',
    `Person role: ${kind.personRole ?? 'none (no person is named)'}. Request Recipient: ${kind.showRecipient ? 'shown' : 'hidden'}.`,
    `Supporting documents: ${kind.documents.required ? `at least one (${MESSAGES.requiredDocuments})` : 'optional'}: ${kind.documents.hint}`, '',
    '| Section | Field | Label | Required | Rule | Message |', '|---|---|---|---|---|---|', ...rows, '',
    ...(periods.length ? ['Periods:', ...periods, ''] : []),
  ].join('\n');
}

export function requestFieldsMarkdown(): string {
  return [
    '# Request fields', '',
    'Generated from `domain/request-kinds.ts` by `npm run docs:fields`: do not edit by hand. The API validates a submit',
    'and the UI marks fields with the same definitions (`domain/request-rules.ts`: JSON Schema, ajv, ajv-errors).',
    'Text is trimmed and curly apostrophes straightened before any rule; a blank value is a missing value. A field',
    'that is not shown is neither required nor kept (the form clears it when its choice changes).', '',
    'Where the spec names no field list for a subtype, the lists below are our choice as a risk office would make it',
    '(see "Choices" at the end).', '',
    kindTable(CREDENTIALING_KIND, 'Claim History and Insurance Verification'),
    ...Object.entries(CERTIFICATE_KINDS).map(([type, kind]) => kindTable(kind, `Certificate: ${type}`)),
    '## Choices where the spec is silent', '',
    '- Claim history: spec 1 §2 names an Authorization section without its fields. It holds one required box: the',
    '  requester confirms that the clinician authorized the release, by the signed release or dated letter attached',
    '  (the document rule). A clone does not copy the box (`perRequest`): the source\'s release vouches for its own request.',
    '  Internal requesters pick the clinician from the directory (Add Clinician), which records the employee id.',
    '- Every certificate names a certificate holder and its address (the certificate is addressed to it), with the note',
    '  that additional insureds cannot be named; the holder email is optional.',
    '- Clinician and Provider certificates carry a coverage period (start and end) and the person; the policy years',
    '  covering that period print on the certificate. Events print the policy year of the event dates, rentals of the',
    '  rental dates, other subtypes the policy year in force on the issue date.',
    '- Rental: driver, rental company, pick-up address, rental dates and the approval checkbox are required; the VIN is',
    '  optional (it is often unknown before pick-up). Fleet: year, make, model, VIN, the three reference-list selects',
    '  and an internal contact are required; plate and colour optional. The two admin checkboxes of spec 1 §3 are',
    '  `vehicleDecommissioned` and `vehicleTransferred`.',
    '- Contracts/Lease: a contract needs its number; a lease its number and expiration date; "for leased property"',
    '  Yes needs the property name and address. An internal contact is required. Approved and Approved with Letter of',
    '  Intent need the Verified box (spec 1 §5).',
    '- Event: name, type, location, description, start and end, and two Yes/No questions; patient care Yes needs a',
    '  description of the care. The OCA number is optional.',
    '- Property: reason, new lease or equipment (Yes/No), lessor name and an internal contact are required; Real Estate',
    '  needs the building address.',
    '',
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  writeFileSync(path.join(import.meta.dirname, '..', 'docs', 'REQUEST-FIELDS.md'), requestFieldsMarkdown());
  console.log('wrote docs/REQUEST-FIELDS.md');
}
