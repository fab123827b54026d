/**
 * FAQs (spec 1 §5, spec 2 §7.11): orders stay contiguous (1..n) within each type on add, edit and delete. Every
 * change runs in one transaction holding an advisory lock on its type, so two admins never leave a gap or a
 * duplicate order, and an edit (question, answer and move) is atomic.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { cleanText, DESK_MESSAGES, faqErrors, faqOrderFor, FAQ_ORDER_MESSAGE, type FaqInput, type FaqType } from '../../domain';
import { FaqSchema, type Faq } from '../../db/entities';
import { kysely } from '../../db/kysely';
import { invalid, notFound } from '../refusals';

const lockType = (em: EntityManager, type: string) => sql`select pg_advisory_xact_lock(hashtext(${`faqs:${type}`}))`.execute(kysely(em));

async function assertUnique(em: EntityManager, type: string, question: string, exceptId?: number) {
  const rows = await kysely(em).selectFrom('faqs').select('id')
    .where('type', '=', type as FaqType).where((eb) => eb(eb.fn('lower', ['question']), '=', eb.fn('lower', [eb.val(question)])))
    .execute();
  if (rows.some((r) => r.id !== exceptId)) throw invalid(DESK_MESSAGES.faqDuplicate, { question: DESK_MESSAGES.faqDuplicate });
}

const shift = (em: EntityManager, type: string, by: 1 | -1, from: number, to: number) => kysely(em).updateTable('faqs')
  .set((eb) => ({ order: eb('order', '+', by), updated_at: sql<Date>`now()` }))
  .where('type', '=', type as FaqType).where('order', '>=', from).where('order', '<=', to)
  .execute();

function clean(input: FaqInput, adding: boolean) {
  const errors = faqErrors(input, adding);
  if (Object.keys(errors).length) throw invalid(Object.values(errors)[0], errors);
  return { question: cleanText(input.question) ?? '', answer: cleanText(input.answer) ?? '' };
}

export async function listFaqs(em: EntityManager, type: FaqType): Promise<Faq[]> {
  return em.find(FaqSchema, { type }, { orderBy: { order: 'asc', id: 'asc' } });
}

export async function createFaq(em: EntityManager, input: FaqInput): Promise<Faq> {
  const { question, answer } = clean(input, true);
  const type = input.type as FaqType;
  return em.transactional(async (tx) => {
    await lockType(tx, type);
    await assertUnique(tx, type, question);
    const count = await tx.count(FaqSchema, { type });
    const order = faqOrderFor(input.order ?? undefined, count, true);
    if (order === null) throw invalid(FAQ_ORDER_MESSAGE, { order: FAQ_ORDER_MESSAGE });
    await shift(tx, type, 1, order, count);
    return tx.create(FaqSchema, { type, question, answer, order });
  });
}

export async function updateFaq(em: EntityManager, id: number, input: FaqInput): Promise<Faq> {
  const { question, answer } = clean(input, false);
  return em.transactional(async (tx) => {
    const probe = await tx.findOne(FaqSchema, id);
    if (!probe) throw notFound('FAQ not found');
    await lockType(tx, probe.type);
    const faq = await tx.findOneOrFail(FaqSchema, id, { refresh: true });
    await assertUnique(tx, faq.type, question, id);
    const count = await tx.count(FaqSchema, { type: faq.type });
    const order = faqOrderFor(input.order, count, false);
    if (order === null) throw invalid(FAQ_ORDER_MESSAGE, { order: FAQ_ORDER_MESSAGE });
    if (order < faq.order) await shift(tx, faq.type, 1, order, faq.order - 1);
    if (order > faq.order) await shift(tx, faq.type, -1, faq.order + 1, order);
    tx.assign(faq, { question, answer, order });
    return faq;
  });
}

export async function deleteFaq(em: EntityManager, id: number): Promise<Faq> {
  return em.transactional(async (tx) => {
    const probe = await tx.findOne(FaqSchema, id);
    if (!probe) throw notFound('FAQ not found');
    await lockType(tx, probe.type);
    const faq = await tx.findOne(FaqSchema, id, { refresh: true });
    if (!faq) throw notFound('FAQ not found');
    const count = await tx.count(FaqSchema, { type: faq.type });
    tx.remove(faq);
    await tx.flush();
    await shift(tx, faq.type, -1, faq.order + 1, count);
    return faq;
  });
}
