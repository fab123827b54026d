/**
 * The office's instant-certificate rules as administrators write them: create, change (a new version each time),
 * switch on and off, the office-wide switch and the requester holds. Every change is written with who and when and
 * goes to the security log. Rules are read by the request workflow's decision (services/instant/decide.ts) and by
 * the simulator; a change never touches a decision already made (decisions keep the version they applied).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { INSTANT_DEFAULTS, INSTANT_MESSAGES, officeDayStart, officeToday, ruleProblems, type RuleGroup } from '../../domain';
import type { InstantRuleBody, InstantRuleRecord, InstantRuleVersionRecord, InstantSettingsRecord, UpdateInstantRuleBody } from '../../contract/instant.schema';
import { kysely } from '../../db/kysely';
import { recordSecurityEvent } from '../desk/security-log';
import { conflict, invalid, notFound } from '../refusals';

/** Who changed it, as the rule's row and the security log name them. */
export interface RuleEditor { userId: number; name: string; email: string; ip?: string | null }

function checkedBody(body: InstantRuleBody): { name: string; kinds: string[]; conditions: RuleGroup; checkEvery: number; dailyCap: number } {
  const name = body.name.trim();
  const errors: Record<string, string> = {};
  if (!name) errors.name = INSTANT_MESSAGES.nameRequired;
  if (body.kinds.length === 0) errors.kinds = INSTANT_MESSAGES.kindsRequired;
  const problems = ruleProblems(body.conditions, body.kinds);
  if (problems.length) errors.conditions = problems.join('; ');
  const first = Object.values(errors)[0];
  if (first) throw invalid(first, errors);
  return { name, kinds: [...body.kinds], conditions: body.conditions, checkEvery: body.checkEvery ?? INSTANT_DEFAULTS.checkEvery, dailyCap: body.dailyCap ?? INSTANT_DEFAULTS.dailyCap };
}

type RuleRow = {
  id: number; name: string; kinds: string[]; conditions: unknown; check_every: number; daily_cap: number; enabled: boolean; version: number;
  problem: string | null; updated_at: Date; updated_by: string | null;
};

const recordOf = (r: RuleRow, issuedToday = 0, issuedTotal = 0): InstantRuleRecord => ({
  id: r.id, name: r.name, kinds: r.kinds, conditions: r.conditions as RuleGroup, checkEvery: r.check_every, dailyCap: r.daily_cap,
  enabled: r.enabled, version: r.version, problem: r.problem, updatedAt: r.updated_at, updatedBy: r.updated_by, issuedToday, issuedTotal,
});

export async function instantSettings(em: EntityManager): Promise<InstantSettingsRecord> {
  const row = await kysely(em).selectFrom('instant_settings').select(['enabled', 'updated_at', 'updated_by']).where('id', '=', 1).executeTakeFirst();
  return { enabled: row?.enabled ?? false, updatedAt: row?.updated_at ?? new Date(0), updatedBy: row?.updated_by ?? null };
}

/** Every rule, newest first, with what it issued today (office day) and in all. */
export async function listInstantRules(em: EntityManager, timeZone: string): Promise<InstantRuleRecord[]> {
  const dayStart = officeDayStart(officeToday(timeZone), timeZone);
  const rows = await kysely(em).selectFrom('instant_rules as r')
    .select(['r.id', 'r.name', 'r.kinds', 'r.conditions', 'r.check_every', 'r.daily_cap', 'r.enabled', 'r.version', 'r.problem', 'r.updated_at', 'r.updated_by'])
    .select((eb) => [
      eb.selectFrom('instant_decisions as d').whereRef('d.rule_id', '=', 'r.id').where('d.outcome', '=', 'issued').where('d.decided_at', '>=', dayStart)
        .select(sql<number>`count(*)::int`.as('n')).as('issued_today'),
      eb.selectFrom('instant_decisions as d').whereRef('d.rule_id', '=', 'r.id').where('d.outcome', '=', 'issued')
        .select(sql<number>`count(*)::int`.as('n')).as('issued_total'),
    ])
    .orderBy('r.id', 'desc').limit(500).execute();
  return rows.map((r) => recordOf(r as RuleRow, Number(r.issued_today ?? 0), Number(r.issued_total ?? 0)));
}

async function ruleRow(em: EntityManager, id: number, lock = false): Promise<RuleRow> {
  let q = kysely(em).selectFrom('instant_rules')
    .select(['id', 'name', 'kinds', 'conditions', 'check_every', 'daily_cap', 'enabled', 'version', 'problem', 'updated_at', 'updated_by'])
    .where('id', '=', id);
  if (lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  if (!row) throw notFound('Rule not found');
  return row as RuleRow;
}

export async function instantRule(em: EntityManager, id: number): Promise<InstantRuleRecord> {
  return recordOf(await ruleRow(em, id));
}

/** A new rule, switched off, version 1. */
export async function createInstantRule(em: EntityManager, body: InstantRuleBody, editor: RuleEditor): Promise<InstantRuleRecord> {
  const rule = checkedBody(body);
  return em.transactional(async (tx) => {
    const db = kysely(tx);
    const row = await db.insertInto('instant_rules').values({
      name: rule.name, kinds: JSON.stringify(rule.kinds), conditions: JSON.stringify(rule.conditions), check_every: rule.checkEvery,
      daily_cap: rule.dailyCap, updated_by: editor.name,
    }).returning('id').executeTakeFirstOrThrow();
    await saveVersion(tx, row.id, 1, rule, editor);
    await logChange(tx, editor, 'instantRuleCreated', { ruleId: row.id, name: rule.name, version: 1 });
    return recordOf(await ruleRow(tx, row.id));
  });
}

/**
 * A changed rule is a new version. The editor names the version it started from: one saved meanwhile answers 409.
 * A rule switched off by itself for a problem stays off; its problem is cleared by a version that can be evaluated.
 */
export async function updateInstantRule(em: EntityManager, id: number, body: UpdateInstantRuleBody, editor: RuleEditor): Promise<InstantRuleRecord> {
  const rule = checkedBody(body);
  return em.transactional(async (tx) => {
    const current = await ruleRow(tx, id, true);
    if (current.version !== body.version) throw conflict('This rule was changed by someone else meanwhile: reload it to see their version');
    const version = current.version + 1;
    await kysely(tx).updateTable('instant_rules').set({
      name: rule.name, kinds: JSON.stringify(rule.kinds), conditions: JSON.stringify(rule.conditions), check_every: rule.checkEvery,
      daily_cap: rule.dailyCap, version, problem: null, updated_at: new Date(), updated_by: editor.name,
    }).where('id', '=', id).execute();
    await saveVersion(tx, id, version, rule, editor);
    await logChange(tx, editor, 'instantRuleChanged', { ruleId: id, name: rule.name, version });
    return recordOf(await ruleRow(tx, id));
  });
}

export async function setInstantRuleEnabled(em: EntityManager, id: number, enabled: boolean, editor: RuleEditor): Promise<InstantRuleRecord> {
  return em.transactional(async (tx) => {
    const current = await ruleRow(tx, id, true);
    if (enabled) {
      const problems = ruleProblems(current.conditions, current.kinds);
      if (problems.length) throw invalid(INSTANT_MESSAGES.switchedOff(problems.join('; ')));
    }
    if (current.enabled !== enabled) {
      await kysely(tx).updateTable('instant_rules').set({ enabled, problem: null, updated_at: new Date(), updated_by: editor.name }).where('id', '=', id).execute();
      await logChange(tx, editor, enabled ? 'instantRuleEnabled' : 'instantRuleDisabled', { ruleId: id, name: current.name, version: current.version });
    }
    return recordOf(await ruleRow(tx, id));
  });
}

export async function instantRuleVersions(em: EntityManager, id: number): Promise<InstantRuleVersionRecord[]> {
  await ruleRow(em, id);
  const rows = await kysely(em).selectFrom('instant_rule_versions').selectAll().where('rule_id', '=', id).orderBy('version', 'desc').limit(500).execute();
  return rows.map((v) => ({
    version: v.version, name: v.name, kinds: v.kinds, conditions: v.conditions as RuleGroup, checkEvery: v.check_every, dailyCap: v.daily_cap,
    savedAt: v.saved_at, savedBy: v.saved_by,
  }));
}

/** The office-wide switch: off, no rule issues anything. */
export async function setOfficeSwitch(em: EntityManager, enabled: boolean, editor: RuleEditor): Promise<InstantSettingsRecord> {
  return em.transactional(async (tx) => {
    const before = await instantSettings(tx);
    if (before.enabled !== enabled) {
      await kysely(tx).updateTable('instant_settings').set({ enabled, updated_at: new Date(), updated_by: editor.name }).where('id', '=', 1).execute();
      await logChange(tx, editor, enabled ? 'instantSwitchedOn' : 'instantSwitchedOff', {});
    }
    return instantSettings(tx);
  });
}

/** A requester on hold: their requests wait for a person whatever a rule says. */
export async function setInstantHold(em: EntityManager, userId: number, hold: boolean, reason: string | undefined, editor: RuleEditor | null) {
  const row = await kysely(em).updateTable('users')
    .set(hold ? { instant_hold_at: sql<Date>`coalesce("instant_hold_at", now())`, instant_hold_reason: reason?.trim() || null } : { instant_hold_at: null, instant_hold_reason: null })
    .where('id', '=', userId).returning(['id', 'instant_hold_at', 'instant_hold_reason', 'email']).executeTakeFirst();
  if (!row) throw notFound('User not found');
  await recordSecurityEvent(em, {
    kind: hold ? 'instantHoldSet' : 'instantHoldCleared', userId: editor?.userId ?? null, email: editor?.email ?? null, ip: editor?.ip ?? null,
    detail: { heldUserId: userId, heldEmail: row.email, ...(hold && reason ? { reason } : {}),  },
  });
  return { userId: row.id, onHold: row.instant_hold_at !== null, since: row.instant_hold_at, reason: row.instant_hold_reason };
}

/** Requesters on hold, longest first (the office releases them one by one). */
export async function heldRequesters(em: EntityManager) {
  const rows = await kysely(em).selectFrom('users').select(['id', 'first_name', 'last_name', 'email', 'instant_hold_at', 'instant_hold_reason'])
    .where('instant_hold_at', 'is not', null).orderBy('instant_hold_at').limit(500).execute();
  return rows.map((r) => ({
    userId: r.id, name: [r.first_name, r.last_name].filter(Boolean).join(' ') || r.email, email: r.email, since: r.instant_hold_at!, reason: r.instant_hold_reason,
  }));
}

async function saveVersion(em: EntityManager, ruleId: number, version: number, rule: ReturnType<typeof checkedBody>, editor: RuleEditor) {
  await kysely(em).insertInto('instant_rule_versions').values({
    rule_id: ruleId, version, name: rule.name, kinds: JSON.stringify(rule.kinds), conditions: JSON.stringify(rule.conditions),
    check_every: rule.checkEvery, daily_cap: rule.dailyCap, saved_by: editor.name,
  }).execute();
}

async function logChange(em: EntityManager, editor: RuleEditor, kind: Parameters<typeof recordSecurityEvent>[1]['kind'], detail: Record<string, unknown>) {
  await recordSecurityEvent(em, { kind, userId: editor.userId, email: editor.email, ip: editor.ip ?? null, detail });
}
