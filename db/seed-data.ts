/** Development defaults seeded on first start: users, the twelve email templates, policy years. */
import { ALL_EMAIL_TEMPLATE_ORDER, EMAIL_TEMPLATE_TITLES as T, type EmailTemplateTitle } from '../domain/notification-template';
import { CLOCK_TEMPLATE_TITLES as C, type ClockTemplateTitle } from '../domain/request-clocks';
import { REQUEST_RETURNED_TO_REVIEW, REQUEST_RETURNED_TO_REVIEW_ORDER } from '../domain/wake-ups';
import { CERTIFICATE_REVOKED_TEMPLATE, CERTIFICATE_REVOKED_TEMPLATE_ORDER } from '../domain/issued-letters';
import { CERTIFICATE_RENEWED_TEMPLATE, CERTIFICATE_RENEWED_TEMPLATE_ORDER, RENEWAL_QUESTION_TEMPLATE, RENEWAL_QUESTION_TEMPLATE_ORDER } from '../domain/renewals';
import { NON_EMPLOYEE_IS_CODES, STUDENT_IS_CODE } from '../domain/reference-lists';

/**
 * The development accounts' passwords are published (README), so their argon2id hashes are made once and kept here
 * (the parameters of services/accounts/password-hash.ts, which rehashes an older one at its next sign-in): the seed
 * writes them as they are. tests/infra/development-accounts.test.ts checks each still verifies its password.
 */
export const DEV_ADMIN = {
  email: 'admin@coi-portal.local', password: 'Admin-Pass1', firstName: 'Riley', lastName: 'Manager',
  passwordHash: '$argon2id$v=19$m=19456,p=1,t=2$M5ZL/eRTCgC2JjUBq1nztw$iSvgNn5Xbp05JJk8XNwu0QOnCUoGvR3SATsOzVpRIqU',
};
export const DEV_REQUESTER = {
  email: 'requester@hospital.example', password: 'Requester-Pass1', firstName: 'Casey', lastName: 'Requester',
  passwordHash: '$argon2id$v=19$m=19456,p=1,t=2$dNU7oYG6i+F4k/MwB16NYw$3GfeRfW2VFn7jDTIkECMVwC+Gz19zqNhKSL06XipNuc',
  company: 'Mercy Hospital', phone: '503-123-1234',
};

const signature = '\n\nRisk Management\n{{productName}} Risk Management Office\n';
const requestLine = 'Request number: {{requestNumber}}\nClinician: {{clinicianName}}\nStatus: {{status}}\n';
const link = 'View the request: {{requestUrl}}\n';
const certificateLine = 'Request number: {{requestNumber}}\nCertificate: {{certificateType}}\nCertificate holder: {{certificateHolder}}\nStatus: {{status}}\n';

/**
 * The body of Additional Information Needed. `{{additionalInformation}}` says what is asked when the portal asks by
 * itself (an expired signed release); migration 20261122063000 adds the block to a body still as first seeded.
 */
const ADDITIONAL_INFORMATION_BODY_BEFORE_CLOCKS = 'Dear {{requesterName}},\n\nWe need more information before we can complete your request. Please open it, ' +
  'read the discussion and resubmit.\n\n' + requestLine + link + signature;
const ADDITIONAL_INFORMATION_BLOCK = '{{#if additionalInformation}}{{additionalInformation}}\n\n{{/if}}';
const ADDITIONAL_INFORMATION_BODY = ADDITIONAL_INFORMATION_BODY_BEFORE_CLOCKS.replace('resubmit.\n\n', `resubmit.\n\n${ADDITIONAL_INFORMATION_BLOCK}`);

/** Handlebars variables: requesterName, requestNumber, requestTypeLabel, clinicianName, status, requestUrl, portalUrl, productName,
 * certificateType, certificateHolder. */
const TEMPLATE_TEXT: Record<EmailTemplateTitle | ClockTemplateTitle, { subject: string; body: string }> = {
  [T.submissionConfirmation]: {
    subject: 'Request {{requestNumber}} received: {{requestTypeLabel}}',
    body: 'Dear {{requesterName}},\n\nThank you. We received your {{requestTypeLabel}} request.\n\n' + requestLine + link +
      '\nWe will email you when its status changes.' + signature,
  },
  [T.credentialingApproved]: {
    subject: 'Request {{requestNumber}} approved: claim history and insurance verification for {{clinicianName}}',
    body: 'Dear {{requesterName}},\n\nThe claim history and insurance verification letter for {{clinicianName}} is attached.\n\n' +
      requestLine + link + signature,
  },
  [T.credentialingDenied]: {
    subject: 'Request {{requestNumber}} denied',
    body: 'Dear {{requesterName}},\n\nWe are unable to provide a claim history and insurance verification letter for {{clinicianName}}.\n\n' +
      requestLine + link + signature,
  },
  [T.certificateApproved]: {
    subject: 'Request {{requestNumber}} approved: certificate of insurance',
    body: 'Dear {{requesterName}},\n\nYour {{certificateType}} certificate of insurance is attached.\n\n' + certificateLine + link + signature,
  },
  [T.certificateApprovedLetterOfIntent]: {
    subject: 'Request {{requestNumber}} approved with letter of intent',
    body: 'Dear {{requesterName}},\n\nYour certificate request is approved with a letter of intent, attached. The certificate ' +
      'follows once the contract or lease is executed.\n\n' + certificateLine + link + signature,
  },
  [T.certificateDenied]: {
    subject: 'Request {{requestNumber}} denied',
    body: 'Dear {{requesterName}},\n\nWe are unable to issue the certificate of insurance you requested.\n\n' + requestLine + link + signature,
  },
  [T.additionalInformationNeeded]: {
    subject: 'Request {{requestNumber}}: additional information needed',
    body: ADDITIONAL_INFORMATION_BODY,
  },
  [T.pendingEmployment]: {
    subject: 'Request {{requestNumber}}: pending employment',
    body: 'Dear {{requesterName}},\n\nYour request is on hold until {{clinicianName}}\'s employment is confirmed.\n\n' + requestLine + link + signature,
  },
  [T.pendingNewPolicyYear]: {
    subject: 'Request {{requestNumber}}: pending new policy year',
    body: 'Dear {{requesterName}},\n\nYour request covers a policy year that has not started; we will complete it when it does.\n\n' +
      requestLine + link + signature,
  },
  [T.pendingOca]: {
    subject: 'Request {{requestNumber}}: pending off-campus authorization (OCA)/contract',
    body: 'Dear {{requesterName}},\n\nYour request waits for the off-campus authorization (OCA) or contract.\n\n' + requestLine + link + signature,
  },
  [T.requestResubmission]: {
    subject: 'Request {{requestNumber}} resubmitted',
    body: 'Dear {{requesterName}},\n\nYour request was resubmitted and is back in review.\n\n' + requestLine + link + signature,
  },
  [T.requestDiscussion]: {
    subject: 'Request {{requestNumber}}: new message',
    body: 'Dear {{requesterName}},\n\nThere is a new message about your request. Open it to read and reply.\n\n' + requestLine + link + signature,
  },
  // Sent by the request's clocks (domain/request-clocks.ts).
  [C.reminder]: {
    subject: 'Reminder: request {{requestNumber}} needs additional information',
    body: 'Dear {{requesterName}},\n\nWe are still waiting for more information before we can complete your request. Please open it, ' +
      'read the discussion and resubmit.\n\n' + requestLine + link + signature,
  },
  [C.escalation]: {
    subject: 'Request {{requestNumber}} is waiting for review',
    body: 'Request {{requestNumber}} ({{requestTypeLabel}}) from {{requesterName}} was submitted and has not been reviewed yet.\n\n' +
      requestLine + link + signature,
  },
  [C.autoClosed]: {
    subject: 'Request {{requestNumber}} closed',
    body: 'Dear {{requesterName}},\n\nWe closed your request because we did not receive the additional information we asked for. ' +
      'You may submit a new request at any time.\n\n' + requestLine + link + signature,
  },
};

export const SEED_EMAIL_TEMPLATES = ALL_EMAIL_TEMPLATE_ORDER.map(([title, order]) => ({ title, order, ...TEMPLATE_TEXT[title] }));

/** Beyond the twelve: the administrators hear that a waiting request returned to review by itself. */
const WAKE_UP_EMAIL_TEMPLATE = {
  title: REQUEST_RETURNED_TO_REVIEW,
  order: REQUEST_RETURNED_TO_REVIEW_ORDER,
  subject: 'Request {{requestNumber}} is back in review',
  body: 'Request {{requestNumber}} ({{requestTypeLabel}}) returned to the review queue by itself: what it was waiting for ' +
    'has arrived (a policy year covering its dates, or the clinician\'s active employment). The audit trail says which.\n\n' +
    requestLine + link + signature,
};

/** The requester hears that a certificate or claim-history letter of the request was revoked, and why. */
const CERTIFICATE_REVOKED_EMAIL_TEMPLATE = {
  title: CERTIFICATE_REVOKED_TEMPLATE,
  order: CERTIFICATE_REVOKED_TEMPLATE_ORDER,
  subject: 'Request {{requestNumber}}: certificate revoked',
  body: 'Dear {{requesterName}},\n\n{{additionalInformation}}\n\nPlease do not use the revoked document any more. ' +
    'If you still need one, open your request or contact us.\n\n' + requestLine + link + signature,
};

/** Renewal season (domain/renewals.ts): the renewed certificate, to the requester and the holder, with the new PDF. */
const CERTIFICATE_RENEWED_EMAIL_TEMPLATE = {
  title: CERTIFICATE_RENEWED_TEMPLATE,
  order: CERTIFICATE_RENEWED_TEMPLATE_ORDER,
  subject: 'Request {{requestNumber}}: certificate renewed',
  body: 'Dear {{requesterName}},\n\n{{additionalInformation}}\n\n' + requestLine + link + signature,
};

/** Renewal season, ask first: "Do you still need this certificate?", with the answer links in `{{additionalInformation}}`. */
const RENEWAL_QUESTION_EMAIL_TEMPLATE = {
  title: RENEWAL_QUESTION_TEMPLATE,
  order: RENEWAL_QUESTION_TEMPLATE_ORDER,
  subject: 'Request {{requestNumber}}: do you still need this certificate?',
  body: 'Dear {{requesterName}},\n\n{{additionalInformation}}\n\n' + requestLine + link + signature,
};

/** Templates seeded beside the twelve of the spec, each a separate entry with its own order. */
export const EXTRA_EMAIL_TEMPLATES = [WAKE_UP_EMAIL_TEMPLATE, CERTIFICATE_REVOKED_EMAIL_TEMPLATE, CERTIFICATE_RENEWED_EMAIL_TEMPLATE, RENEWAL_QUESTION_EMAIL_TEMPLATE];

/** The first year (July 1) of the policy year in force on `now`. */
const policyYearStartOf = (now: Date) => (now.getUTCMonth() >= 6 ? now.getUTCFullYear() : now.getUTCFullYear() - 1);

/**
 * Sample policy years from July 1 2002 through the policy year after the current one (spec 2 §9.2), so that a demo
 * certificate issued today shows its coverage. Development and tests only: production never seeds
 * them (db/sample-policy-years.ts finds and removes any an earlier seed left).
 */
export const seedPolicyYears = (now = new Date()) =>
  Array.from({ length: policyYearStartOf(now) + 2 - FIRST_SAMPLE_POLICY_YEAR }, (_, i) => samplePolicyYear(FIRST_SAMPLE_POLICY_YEAR + i));

const FIRST_SAMPLE_POLICY_YEAR = 2002;
/** The sample numbers: `UHS-PL-2024-25` for the year from July 1 2024. */
export const SAMPLE_POLICY_NUMBER = /^UHS-PL-(\d{4})-(\d{2})$/;

/**
 * The sample policy year starting July 1 of `startYear`. 2024-25 carries the spec's figures; earlier years step down
 * 3% a year and later ones rise 3% (our choice: the spec only says the limits rise over time).
 */
export function samplePolicyYear(startYear: number) {
  const yearsBefore = 2024 - startYear;
  const factor = Math.pow(0.97, yearsBefore);
  const round = (n: number) => (Math.round(n / 100) * 100).toFixed(2);
  return {
    startDate: new Date(Date.UTC(startYear, 6, 1, 11)),
    endDate: new Date(Date.UTC(startYear + 1, 5, 30, 11)),
    policyNumber: `UHS-PL-${startYear}-${String(startYear + 1).slice(2)}`,
    limitClaim: yearsBefore === 0 ? '2565400.00' : round(2565400 * factor),
    annualAggregate: yearsBefore === 0 ? '5130700.00' : round(5130700 * factor),
  };
}

export const FIRST_REQUEST_NUMBER = 50001;

/** An internal requester (Employee): signs in through single sign-on (the development IdP lists them) or, in development, with a password. */
export const DEV_INTERNAL_REQUESTER = {
  email: 'employee@ohsu.example', password: 'Employee-Pass1', firstName: 'Jordan', lastName: 'Staffer',
  passwordHash: '$argon2id$v=19$m=19456,p=1,t=2$34GHTw3sXyfAItWU5jEu2w$bf0klOwhVhtBObqFE8oLbWh8WYpoEGK+0bGmk3B40r4',
  phone: '503-494-0000', employeeId: '400100',
};

const FIRST_NAMES = ['Avery', 'Blake', 'Casey', 'Dana', 'Elliot', 'Frances', 'Gabriel', 'Harper', 'Iris', 'Jamie', 'Kai', 'Logan',
  'Morgan', 'Noel', 'Oakley', 'Parker', 'Quinn', 'Reese', 'Sage', 'Taylor', 'Uma', 'Val', 'Wren', 'Yael', 'Zion', 'Maria', 'Chen', 'Priya',
  'Ahmed', 'Sofia', 'Kenji', 'Lucia', 'Omar', 'Nadia', 'Tomas', 'Ingrid', 'Ravi', 'Mei', 'Diego', 'Amara'];
const LAST_NAMES = ['Anderson', 'Brooks', 'Castillo', 'Dawson', 'Ellis', 'Fischer', 'Garcia', 'Hughes', 'Ibarra', 'Jensen', 'Kowalski',
  'Larsen', 'Mendoza', 'Nguyen', 'Okafor', 'Patel', 'Quintero', 'Rossi', 'Schmidt', 'Tanaka', 'Underwood', 'Vasquez', 'Whitaker',
  'Xu', 'Yamamoto', 'Zimmerman', 'Alvarez', 'Bennett', 'Chowdhury', 'Delgado', 'Eriksen', 'Fontaine', 'Gupta', 'Hansen', 'Iverson',
  'Johansson', 'Kim', 'Lindqvist', 'Moreau', 'Novak', 'Olsen', 'Petrov', 'Reyes', 'Sullivan', 'Torres', 'Ueda', 'Volkov', 'Walsh',
  'Young', 'Zhang'];
const TITLES = ['Physician', 'Nurse Practitioner', 'Registered Nurse', 'Physician Assistant', 'Resident', 'Fellow', 'Pharmacist',
  'Fleet Coordinator', 'Facilities Manager', 'Program Manager', 'Event Coordinator', 'Research Associate'];
/** IS codes used as employee ids for non-employees other than students (spec 2 §9.3, listed in domain/). */
const NON_EMPLOYEE_CODES = NON_EMPLOYEE_IS_CODES.map((c) => c.code).filter((code) => code !== STUDENT_IS_CODE);

interface SeedPerson {
  employeeId: string; email: string; lastName: string; firstName: string; middleInitial: string | null; title: string;
  workPhone: string; birthDate: Date; hireDate: Date | null; employmentStatus: 'A' | 'T'; terminationDate: Date | null;
  personType: 'Employee' | 'Student';
}

/**
 * A development directory of `count` generated employees and students, the same on every start (a fixed
 * pseudo-random sequence): students carry the Student IS code, some non-employees the other IS codes.
 */
export function generateDirectory(count = 3000): SeedPerson[] {
  let seed = 20261122;
  const next = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const day = (year: number) => new Date(Date.UTC(year, Math.floor(next() * 12), 1 + Math.floor(next() * 28), 11));
  const people: SeedPerson[] = [];
  for (let i = 0; i < count; i++) {
    const firstName = pick(FIRST_NAMES);
    const lastName = pick(LAST_NAMES);
    const student = i % 5 === 4;
    const nonEmployee = !student && i % 23 === 7;
    const terminated = !student && i % 17 === 3;
    const employeeId = student ? STUDENT_IS_CODE : nonEmployee ? NON_EMPLOYEE_CODES[i % NON_EMPLOYEE_CODES.length] : String(100000 + i * 7);
    const hire = student ? null : day(2000 + Math.floor(next() * 25));
    people.push({
      employeeId, lastName, firstName,
      email: `${firstName}.${lastName}${i}@${student ? 'students.' : ''}ohsu.example`.toLowerCase(),
      middleInitial: next() < 0.6 ? String.fromCharCode(65 + Math.floor(next() * 26)) : null,
      title: student ? 'Student' : pick(TITLES),
      workPhone: `503-${String(400 + Math.floor(next() * 100))}-${String(1000 + Math.floor(next() * 9000))}`,
      birthDate: day(1955 + Math.floor(next() * 45)),
      hireDate: hire,
      employmentStatus: terminated ? 'T' : 'A',
      terminationDate: terminated ? day(2025) : null,
      personType: student ? 'Student' : 'Employee',
    });
  }
  return people;
}

/**
 * FAQs seeded on first start: the requester set carries the help text of spec 1 §2; the administrator
 * set covers the desk's own tools. Administrators edit both under Manage FAQs.
 */
export const SEED_FAQS: { type: 'Admin' | 'Requester'; question: string; answer: string }[] = [
  { type: 'Requester', question: 'How do I start a new request?', answer: 'On the Dashboard, select New Certificate of Insurance Request (then choose the kind of certificate) or New Claim History and Insurance Verification Request, and fill in the form.' },
  { type: 'Requester', question: 'How do I add a clinician?', answer: 'Select Add Clinician. It opens a search by employee id, email, or first and last name; choose the person found, then select Apply.' },
  { type: 'Requester', question: 'Can I save a request and finish it later?', answer: 'Yes. Select Save Draft at any time (changes are also saved as a draft automatically). Your drafts are listed on the Dashboard under Draft Requests, with Edit to continue.' },
  { type: 'Requester', question: 'How do I attach a supporting document?', answer: 'Choose the file, describe it, then select Add a Document. Clinician requests need a release signed within the last 180 days or a dated letter; event requests need a copy of the event contract, permit or lease.' },
  { type: 'Requester', question: 'What happens when I submit?', answer: 'Select Submit. A message shows your request number; select OK to return to Submitted Requests on the Dashboard. You also receive an email confirming that we received the request.' },
  { type: 'Admin', question: 'How do I find an older request?', answer: 'Use Search: fill at least one filter (dates, names, company, email, VIN, plate or driver). Names match anywhere in the text; VIN and plate numbers ignore dashes and spaces.' },
  { type: 'Admin', question: 'How do I link claims to a claim history request?', answer: 'Open the request, select Search Claims under Claim History, search by last and first name, tick the claims to list on the letter and select Link Selected Claims. Linking none records that no claims were found.' },
  { type: 'Admin', question: 'How do I load the CS-STARS claims?', answer: 'Under Manage, CS-STARS Data: choose the CSV export and select Upload. A file with errors is refused with the line numbers and nothing of it is kept; the same export uploaded twice does not duplicate claims.' },
  { type: 'Admin', question: 'How do I export requests to a spreadsheet?', answer: 'Under Manage, Export Requests: choose the submission dates and, if you like, a request type, then select Export. The file appears in the list of exports when it is ready.' },
];

/** Development only (db/seed.ts): rules to try the instant-certificate editor and simulator on, switched off. */
export const DEVELOPMENT_INSTANT_RULES = [
  {
    name: 'Short events without patient care',
    kinds: ['Event'],
    conditions: { combinator: 'and', rules: [
      { field: 'eventPatientCare', operator: '=', value: 'No' },
      { field: 'periodDays', operator: '<=', value: 3 },
      { field: 'requesterType', operator: '=', value: 'internal' },
    ] },
  },
  {
    name: 'Rental cars for employees',
    kinds: ['Auto Liability'],
    conditions: { combinator: 'and', rules: [
      { field: 'autoType', operator: '=', value: 'Rental' },
      { field: 'periodDays', operator: '<=', value: 14 },
      { field: 'requesterType', operator: '=', value: 'internal' },
    ] },
  },
] as const;
