/**
 * The person a request names, as the kinds declare it (request-kinds.ts): which fields describe that person, what a
 * new pick or Add New leaves of the previous one (nothing), and the person modal's own rules (spec 1 §5: a date on a
 * person form answers "Invalid date", on the request form "Please format like mm/dd/yyyy").
 */
import { PERSON_MESSAGES } from './messages';
import type { FieldDefinition, RequestKindDefinition, SectionDefinition } from './request-kinds';

/** The section of a kind that holds the person it names, when it names one. */
export const personSectionOf = (kind: RequestKindDefinition): SectionDefinition | undefined =>
  kind.personRole ? kind.sections.find((s) => s.fields.some((f) => f.name === 'lastName')) : undefined;

/**
 * The fields that describe the person: every field of the person section but the role the request gives them
 * (the role belongs to the request, and the search that picks the next person is for that role).
 */
export const personDetailFields = (kind: RequestKindDefinition): FieldDefinition[] =>
  (personSectionOf(kind)?.fields ?? []).filter((f) => f.name !== 'personRole');

/**
 * The form values of a newly named person: what is known of them (a directory pick), and every other detail of the
 * person section emptied, so nothing of the previous person (birth date, alternate name, …) stays on the request.
 * `{}` is Add New: every detail empty, to be typed.
 */
export function replacedPersonValues(kind: RequestKindDefinition, known: Readonly<Record<string, string>> = {}): Record<string, string> {
  return Object.fromEntries(personDetailFields(kind).map((f) => [f.name, known[f.name] ?? '']));
}

/** The kind as the person modal checks it: the person's dates answer the person forms' "Invalid date". */
export function personFormKind(kind: RequestKindDefinition): RequestKindDefinition {
  const section = personSectionOf(kind);
  if (!section) return kind;
  const own = (f: FieldDefinition): FieldDefinition => (f.kind === 'date' ? { ...f, ruleMessage: PERSON_MESSAGES.invalidDate } : f);
  return {
    ...kind,
    key: `${kind.key}:person-form`,
    sections: kind.sections.map((s) => (s === section ? { ...s, fields: s.fields.map(own) } : s)),
  };
}
