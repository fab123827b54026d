/**
 * Email templates (spec 1 §5, spec 2 §7.9): subject 100 and body 2,500 characters, trimmed; a template whose
 * handlebars does not compile, or that names a variable the request snapshot does not carry (TEMPLATE_VARIABLES,
 * the list activities/effects/request-snapshot.ts renders with), is refused with a message saying which.
 * Emails are rendered from the template row at send time, so the next email uses the new text.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import Handlebars from 'handlebars';
import {
  emailTemplateErrors, SAMPLE_TEMPLATE_REQUEST, TEMPLATE_HELPERS, TEMPLATE_VARIABLES, templateVariablesOf, unknownVariableMessage,
} from '../../domain';
import { EmailTemplateSchema, RequestSchema, type EmailTemplate } from '../../db/entities';
import { invalid, notFound } from '../refusals';

type Node = { type: string; [key: string]: any };
const KNOWN = new Set<string>(TEMPLATE_VARIABLES);
const HELPERS = new Set<string>(TEMPLATE_HELPERS);

/** The names a template refers to that are neither variables nor allowed helpers. */
function unknownNames(program: Node): { variables: string[]; helpers: string[] } {
  const variables = new Set<string>();
  const helpers = new Set<string>();
  const path = (node: Node | undefined) => {
    if (!node || node.type !== 'PathExpression') { if (node?.type === 'SubExpression') call(node, false); return; }
    if (node.data || node.original === 'this' || node.original === '.') return;
    if (!KNOWN.has(node.original)) variables.add(node.original);
  };
  const call = (node: Node, block: boolean) => {
    const hasArgs = (node.params?.length ?? 0) > 0 || (node.hash?.pairs?.length ?? 0) > 0;
    if (block || hasArgs) {
      const name = node.path?.original;
      if (!HELPERS.has(name)) helpers.add(name);
    } else path(node.path);
    for (const param of node.params ?? []) path(param);
    for (const pair of node.hash?.pairs ?? []) path(pair.value);
  };
  const walk = (node: Node | undefined) => {
    if (!node) return;
    switch (node.type) {
      case 'Program': node.body.forEach(walk); break;
      case 'MustacheStatement': call(node, false); break;
      case 'BlockStatement': call(node, true); walk(node.program); walk(node.inverse); break;
      case 'PartialStatement': case 'PartialBlockStatement': helpers.add(`>${node.name?.original ?? ''}`); break;
      case 'DecoratorBlock': case 'Decorator': helpers.add('decorator'); break;
    }
  };
  walk(program);
  return { variables: [...variables], helpers: [...helpers] };
}

/** Field errors for a template's handlebars (compile errors and unknown names), empty when it renders. */
function templateSyntaxErrors(fields: { subject: string; body: string }): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const key of ['subject', 'body'] as const) {
    let program: Node;
    try {
      program = Handlebars.parse(fields[key]) as unknown as Node;
    } catch (error) {
      const detail = (error as Error).message.split('\n')[0];
      errors[key] = `The ${key} is not a valid template: ${detail}`;
      continue;
    }
    const { variables, helpers } = unknownNames(program);
    if (variables.length) errors[key] = unknownVariableMessage(variables);
    else if (helpers.length) errors[key] = `Unknown helper ${helpers.map((h) => `{{#${h}}}`).join(', ')}. Only ${TEMPLATE_HELPERS.map((h) => `{{#${h}}}`).join(', ')} may be used.`;
  }
  return errors;
}

function cleanFields(input: { subject?: string; body?: string }) {
  const errors = emailTemplateErrors(input);
  if (Object.keys(errors).length) throw invalid(Object.values(errors)[0], errors);
  const fields = { subject: input.subject!.trim(), body: input.body!.trim() };
  const syntax = templateSyntaxErrors(fields);
  if (Object.keys(syntax).length) throw invalid(Object.values(syntax)[0], syntax);
  return fields;
}

export const listTemplates = (em: EntityManager) => em.find(EmailTemplateSchema, {}, { orderBy: { order: 'asc', id: 'asc' } });

export async function updateTemplate(em: EntityManager, id: number, input: { subject?: string; body?: string }): Promise<EmailTemplate> {
  const template = await em.findOne(EmailTemplateSchema, id);
  if (!template) throw notFound('Email template not found');
  const fields = cleanFields({ subject: input.subject ?? template.subject, body: input.body ?? template.body });
  em.assign(template, fields);
  await em.flush();
  return template;
}

/** Renders a subject and body with a request's variables (the latest submitted one, or a built-in sample). */
export async function previewTemplate(em: EntityManager, publicUrl: string, input: { subject?: string; body?: string; requestId?: number }) {
  const fields = cleanFields(input);
  const request = input.requestId
    ? await em.findOne(RequestSchema, input.requestId)
    : await em.findOne(RequestSchema, { submitDate: { $ne: null } }, { orderBy: { submitDate: 'desc' } });
  if (input.requestId && !request) throw notFound('Request not found');
  const variables = templateVariablesOf(request ?? SAMPLE_TEMPLATE_REQUEST, publicUrl);
  return {
    subject: Handlebars.compile(fields.subject, { noEscape: true, strict: false })(variables),
    body: Handlebars.compile(fields.body, { noEscape: true, strict: false })(variables),
    requestNumber: request?.requestNumber ?? SAMPLE_TEMPLATE_REQUEST.requestNumber ?? null,
    sample: !request,
  };
}
