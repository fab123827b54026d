/**
 * "Before the first certificate": what the office must have put in place before a certificate can be issued with its
 * own facts, as the Admin Dashboard lists it until every item is done. Production cannot start without the settings
 * (config/app-config.ts), so there the list waits on the policy years alone; development counts its samples as done,
 * so `npm start` shows the list only when the policy years are missing too.
 */
import { formatOfficeDate } from './office-time';
import { periodCovered } from './policy-years';

export const CHECKLIST_ITEM_IDS = ['policyYear', 'phone', 'mailbox', 'portalAddress'] as const;
type ChecklistItemId = (typeof CHECKLIST_ITEM_IDS)[number];

interface ChecklistItem { id: ChecklistItemId; label: string; done: boolean; detail: string }
export interface FirstCertificateChecklist { complete: boolean; items: ChecklistItem[] }

/** A setting as the server runs with it: its value, and whether that is the development sample. */
interface OfficeSettingState { value: string; sample: boolean }

export interface ChecklistFacts {
  policyYears: ReadonlyArray<{ startDate: Date | string; endDate: Date | string; policyNumber: string }>;
  /** the office's today, yyyy-mm-dd */
  today: string;
  timeZone: string;
  phone: OfficeSettingState;
  mailbox: OfficeSettingState;
  portalAddress: OfficeSettingState;
}

export const CHECKLIST_HEADING = 'Before the first certificate';

const iso = (value: Date | string) => (typeof value === 'string' ? value : value.toISOString());

function policyYearItem(facts: ChecklistFacts): ChecklistItem {
  const label = 'Policy year in force today entered under Manage > Policies';
  const today = formatOfficeDate(facts.today, facts.timeZone);
  const current = facts.policyYears.find((y) => periodCovered([y], facts.today, facts.today));
  if (current) {
    return {
      id: 'policyYear', label, done: true,
      detail: `${current.policyNumber}, ${formatOfficeDate(iso(current.startDate), facts.timeZone)} – ${formatOfficeDate(iso(current.endDate), facts.timeZone)}`,
    };
  }
  const onRecord = facts.policyYears.length === 0 ? 'No policy year is on record' : `None of the ${facts.policyYears.length} policy years on record covers today (${today})`;
  return { id: 'policyYear', label, done: false, detail: `${onRecord}: every certificate approval is refused until it is entered.` };
}

function settingItem(id: ChecklistItemId, label: string, setting: OfficeSettingState): ChecklistItem {
  return { id, label, done: true, detail: setting.sample ? `${setting.value} (development sample)` : setting.value };
}

export function firstCertificateChecklist(facts: ChecklistFacts): FirstCertificateChecklist {
  const items = [
    policyYearItem(facts),
    settingItem('phone', 'Office phone set (RISK_MANAGEMENT_PHONE), shown in help lines and password messages', facts.phone),
    settingItem('mailbox', 'Office mailbox set (RISK_MANAGEMENT_EMAIL), where requesters\' messages go and emails come from', facts.mailbox),
    settingItem('portalAddress', 'Portal address set (PUBLIC_URL), the start of every link in an email', facts.portalAddress),
  ];
  return { complete: items.every((item) => item.done), items };
}
