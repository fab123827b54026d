/**
 * The pickers in Chromium, as an internal requester meets them: an event's period picked on one calendar
 * (spec 1 §4: the first click sets the start, the second the end; by mouse and by keyboard) with times in 30-minute
 * steps (spec 2 §9.1); a rental's person corrected in the person edit modal and made a Supervisor, and a person not
 * in the directory added through Add New; the document picker, which offers every type the upload keeps, PNG and JPEG
 * first. axe checks every page and dialog; screenshots at 1280 and 768 px:
 * test-results/screenshots/pickers-*.png.
 */
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { RequestSchema } from '../../db/entities';
import { DEV_INTERNAL_REQUESTER } from '../../db/seed-data';
import {
  addMonths, dayLabel, DEFAULT_OFFICE_TIME_ZONE, DOCUMENT_PICKER_HINT, formatOfficeDate, MESSAGES, monthOf, monthTitle, officeToday,
} from '../../domain';
import { SAMPLE_PDF, call, certificateDraft, credentialingDraft } from '../support/api-helpers';
import { UPLOAD_MIME_TYPES } from '../../storage/file-sniffing';
import { sessionOf } from '../support/e2e-fixtures';
import { usePortalBrowser } from '../support/portal-browser';

const portal = usePortalBrowser('pickers');
let page: Page;

// Every test has a page of its own (portal-browser.ts); `openAs` replaces it, so `signedIn` keeps `page` current.
beforeEach(() => { page = portal.page; });

/** Opens `path` signed in as the employee (no login form). */
async function signedIn(path = '/') {
  page = await portal.openAs(DEV_INTERNAL_REQUESTER, path);
}

const fill = (name: string, value: string) => page.locator(`[name="${name}"]`).fill(value);
const choose = (name: string, value: string) => page.locator(`select[name="${name}"]`).selectOption(value);
const valueOf = (name: string) => page.locator(`[name="${name}"]`).inputValue();
const stored = (requestNumber: number) => portal.h.orm.em.fork().findOneOrFail(RequestSchema, { requestNumber });

/** Screenshots and axe at 1280 px, then at 768 px (spec 2 §9.1 responsive breakpoint), back to 1280. */
async function atBothWidths(name: string) {
  await portal.checkA11y(`${name} at 1280 px`);
  await portal.shot(`${name}-1280`);
  await page.setViewportSize({ width: 768, height: 1000 });
  await portal.checkA11y(`${name} at 768 px`);
  await portal.shot(`${name}-768`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function startCertificate(type: string) {
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await page.getByRole('link', { name: 'New Certificate of Insurance Request' }).click();
  await page.getByRole('heading', { name: 'Certificate of Insurance Request' }).waitFor();
  await choose('certificateType', type);
}

async function saveAndReadNumber(): Promise<number> {
  await page.getByRole('button', { name: 'Save Draft' }).click();
  await page.waitForURL(/\/requests\/certificate\/\d+\/edit$/);
  const meta = await page.getByText(/^Request Number: \d+/).innerText();
  return Number(/(\d{5,})/.exec(meta)![1]);
}

// Next month, so the period is in the future whatever day the test runs.
const month = addMonths(monthOf(officeToday(DEFAULT_OFFICE_TIME_ZONE)), 1);
const typed = (day: string) => formatOfficeDate(day, DEFAULT_OFFICE_TIME_ZONE);

/** The employee on a new event certificate form, its name filled in. */
async function startEvent() {
  await signedIn();
  await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
  await startCertificate('Event');
  await fill('eventName', 'Autumn Health Fair');
}

/** Opens the period's calendar on next month; returns the calendar grid. */
async function openCalendarOnNextMonth() {
  await page.getByRole('button', { name: 'Pick dates on a calendar' }).click();
  await page.getByRole('button', { name: 'Next month' }).click();
  await page.getByRole('heading', { name: monthTitle(month) }).waitFor();
  return page.getByRole('grid');
}

/** The employee's rental on a new form, the employee picked from the directory. */
async function startRentalWithEmployee() {
  await signedIn();
  await startCertificate('Auto Liability');
  await choose('autoType', 'Rental');
  await page.getByRole('button', { name: 'Add Employee' }).click();
  const search = page.getByRole('dialog', { name: 'Find Employee' });
  await search.getByLabel('Last Name').fill('staff');
  await search.getByLabel('First Name').fill('jord');
  await search.getByRole('button', { name: 'Search' }).click();
  await search.getByRole('radio', { name: 'Jordan Staffer' }).check();
  await search.getByRole('button', { name: 'Apply' }).click();
  await expect.poll(() => valueOf('lastName')).toBe('Staffer');
}

/** A rental draft (made through the API) naming the employee, from the directory, as a Supervisor; its form opened. */
async function openRentalWithSupervisor() {
  const employee = await sessionOf(portal.h, DEV_INTERNAL_REQUESTER);
  const id = await certificateDraft(portal.h, employee, 'Rental', {
    lastName: DEV_INTERNAL_REQUESTER.lastName, firstName: DEV_INTERNAL_REQUESTER.firstName, employeeId: DEV_INTERNAL_REQUESTER.employeeId,
    personRole: 'Supervisor', title: 'Fleet Supervisor', workPhone: '503-494-0101',
  });
  await signedIn(`/requests/certificate/${id}/edit`);
  await page.getByRole('button', { name: 'Edit Supervisor' }).waitFor();
  await expect.poll(() => valueOf('title'), { timeout: 60_000 }).toBe('Fleet Supervisor');
}

describe('an event period picked on a calendar, with times', () => {
  it('signs in as an employee and starts an event certificate', async () => {
    await startEvent();
    expect(await valueOf('eventName')).toBe('Autumn Health Fair');
  });

  it('the first click sets the start, the second the end', async () => {
    await startEvent();
    const open = page.getByRole('button', { name: 'Pick dates on a calendar' });
    expect(await open.getAttribute('aria-expanded')).toBe('false');
    await open.click();
    const calendar = page.getByRole('grid');
    await page.getByRole('button', { name: 'Next month' }).click();
    await page.getByRole('heading', { name: monthTitle(month) }).waitFor();
    await calendar.getByRole('button', { name: dayLabel(`${month}-10`), exact: true }).click();
    expect(await valueOf('eventStartDate')).toBe(typed(`${month}-10`));
    expect(await valueOf('eventEndDate')).toBe('');
    await page.getByText('Now choose the end date.').waitFor();
    await calendar.getByRole('button', { name: dayLabel(`${month}-12`), exact: true }).click();
    expect(await valueOf('eventStartDate')).toBe(typed(`${month}-10`));
    expect(await valueOf('eventEndDate')).toBe(typed(`${month}-12`));
    await calendar.getByRole('button', { name: `${dayLabel(`${month}-11`)}, in range` }).waitFor();
    await atBothWidths('event-period-picked');
  });

  it('an earlier second day starts the range anew (no swapping on request periods); the keyboard picks as well', async () => {
    await startEvent();
    const calendar = await openCalendarOnNextMonth();
    await calendar.getByRole('button', { name: dayLabel(`${month}-10`), exact: true }).click();
    await calendar.getByRole('button', { name: dayLabel(`${month}-12`), exact: true }).click();
    expect(await valueOf('eventEndDate')).toBe(typed(`${month}-12`));
    await calendar.getByRole('button', { name: `${dayLabel(`${month}-12`)}, end date` }).click(); // a third click: a new start
    expect(await valueOf('eventStartDate')).toBe(typed(`${month}-12`));
    expect(await valueOf('eventEndDate')).toBe('');
    await calendar.getByRole('button', { name: dayLabel(`${month}-05`), exact: true }).click(); // earlier: the new start
    expect(await valueOf('eventStartDate')).toBe(typed(`${month}-05`));
    expect(await valueOf('eventEndDate')).toBe('');
    // Keyboard only: the focused day moves with the arrows; Enter picks it.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    expect(await valueOf('eventEndDate')).toBe(typed(`${month}-13`));
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('grid').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Pick dates on a calendar' }).evaluate((b) => b === document.activeElement)).toBe(true);
  });

  it('typed mm/dd/yyyy still works, and times go in 30-minute steps', async () => {
    await startEvent();
    await fill('eventStartDate', typed(`${month}-05`));
    await fill('eventEndDate', typed(`${month}-05`));
    const options = await page.locator('select[name="eventStartTime"] option').allInnerTexts();
    expect(options).toHaveLength(49); // "No time" and the 48 half hours
    expect(options.slice(1, 4)).toEqual(['12:00 AM', '12:30 AM', '1:00 AM']);
    await choose('eventStartTime', '17:00');
    await choose('eventEndTime', '09:00');
    await choose('eventType', 'Community Service');
    await fill('eventLocation', 'Pioneer Courthouse Square');
    await fill('eventDescription', 'Flu shots');
    await page.locator('input[name="eventPatientCare"][value="No"]').check();
    await page.locator('input[name="isProviderEmployRelated"][value="Yes"]').check();
    await page.getByRole('button', { name: 'Submit' }).click();
    // one day, ending before it starts
    await page.getByText('Start time cannot be after end time').waitFor();
    await page.getByText('End time cannot be before start time').waitFor();
    await atBothWidths('event-times-refused');
    await choose('eventStartTime', '09:00');
    await choose('eventEndTime', '17:30');
    await expect.poll(() => page.getByText('Start time cannot be after end time').count()).toBe(0);
    const number = await saveAndReadNumber();
    await expect.poll(async () => (await stored(number)).eventEndTime).toBe('17:30');
    const row = await stored(number);
    expect(row.eventStartTime).toBe('09:00');
    expect(formatOfficeDate(row.eventStartDate!, DEFAULT_OFFICE_TIME_ZONE)).toBe(typed(`${month}-05`));
    await atBothWidths('event-times');
  });

  it('submitted, the request page shows the period with its times', async () => {
    // The draft the test before saves, made through the API: the period with its times, no organizer, holder or document.
    const employee = await sessionOf(portal.h, DEV_INTERNAL_REQUESTER);
    const created = await call(portal.h, employee, 'POST', '/api/v1/requests', {
      requestType: 'certificate', certificateType: 'Event', eventName: 'Autumn Health Fair', eventType: 'Community Service',
      eventStartDate: `${month}-05T11:00:00.000Z`, eventEndDate: `${month}-05T11:00:00.000Z`, eventStartTime: '09:00', eventEndTime: '17:30',
      eventLocation: 'Pioneer Courthouse Square', eventDescription: 'Flu shots', eventPatientCare: 'No', isProviderEmployRelated: 'Yes',
    });
    expect(created.status).toBe(201);
    const eventNumber = created.body.requestNumber as number;
    expect(eventNumber).toBeTypeOf('number');
    await signedIn(`/requests/certificate/${created.body.id}/edit`);
    await expect.poll(() => valueOf('eventName'), { timeout: 60_000 }).toBe('Autumn Health Fair');
    await page.getByRole('button', { name: 'Add Event Organizer' }).click();
    const search = page.getByRole('dialog', { name: 'Find Event Organizer' });
    await search.getByLabel('Employee ID').fill(DEV_INTERNAL_REQUESTER.employeeId);
    await search.getByRole('button', { name: 'Search' }).click();
    await search.getByRole('radio', { name: 'Jordan Staffer' }).check();
    await search.getByRole('button', { name: 'Apply' }).click();
    await fill('certificateHolder', 'City of Portland Parks');
    await fill('certificateHolderAddress', '1120 SW 5th Ave, Portland, OR 97204');
    await page.locator('input[name="file"]').setInputFiles({
      name: 'permit.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n'),
    });
    await page.locator('input[name="description"]').fill('Park permit');
    await page.getByRole('button', { name: 'Add a Document' }).click();
    await page.getByRole('cell', { name: 'permit.pdf' }).waitFor();
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('dialog', { name: 'Your request was submitted' }).getByRole('button', { name: 'OK' }).click();
    await page.getByRole('row').filter({ hasText: String(eventNumber) }).getByRole('link', { name: 'View' }).click();
    await page.getByText(`Request Number: ${eventNumber}`).waitFor();
    const shown = (label: string) => page.getByRole('term').filter({ hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd');
    expect(await shown('Event Start Date').innerText()).toBe(typed(`${month}-05`));
    expect(await shown('Event Start Time').innerText()).toBe('9:00 AM');
    expect(await shown('Event End Time').innerText()).toBe('5:30 PM');
    await atBothWidths('event-view');
  });
});

describe('the document picker (spec 2 §9.1 "File picker default: png and jpeg")', () => {
  /** A credentialing draft of the employee's, open for editing (its documents section has the picker). */
  async function draftWithPicker() {
    const id = await credentialingDraft(portal.h, await sessionOf(portal.h, DEV_INTERNAL_REQUESTER), { lastName: 'Picker' });
    await signedIn(`/requests/credentialing/${id}/edit`);
    const picker = page.locator('input[name="file"]');
    await picker.waitFor({ state: 'attached' });
    return picker;
  }

  it('accepts every type the upload keeps, PNG and JPEG first: a picker without an All files choice still offers a PDF', async () => {
    const picker = await draftWithPicker();
    const accept = (await picker.getAttribute('accept'))!.split(',');
    // The server's one list of what an upload may be (storage/file-sniffing.ts): every type of it is offered.
    for (const mime of UPLOAD_MIME_TYPES) expect(accept, mime).toContain(mime);
    // By name too, for systems that know a PDF release or a Word lease only by its name.
    for (const name of ['.pdf', '.doc', '.docx', '.xls', '.xlsx', '.txt', '.png', '.jpg', '.jpeg']) expect(accept, name).toContain(name);
    expect(accept.filter((type) => type.includes('/')).slice(0, 2)).toEqual(['image/png', 'image/jpeg']);
    expect(await picker.evaluate((input) => document.getElementById(input.getAttribute('aria-describedby')!.split(' ')[0])?.textContent))
      .toBe(DOCUMENT_PICKER_HINT);
  });

  it('where the browser\'s picker offers choices, it opens on PNG and JPEG with the other documents a choice away; a PDF chosen there is added', async () => {
    const picker = await draftWithPicker();
    // Chromium's File System Access picker is a window of the system that Playwright cannot drive: it stands in here,
    // answering what a person choosing "PDF, Word, Excel and other documents", then release.pdf, would.
    await page.evaluate((pdf) => {
      const w = window as unknown as { pickerAsked: unknown[]; showOpenFilePicker: unknown };
      w.pickerAsked = [];
      w.showOpenFilePicker = async (options: unknown) => {
        w.pickerAsked.push(options);
        return [{ getFile: async () => new File([new Uint8Array(pdf)], 'release.pdf', { type: 'application/pdf' }) }];
      };
    }, [...SAMPLE_PDF]);
    await picker.click();
    await page.locator('input[name="description"]').fill('Signed release');
    await page.getByRole('button', { name: 'Add a Document' }).click();
    await page.getByRole('cell', { name: 'release.pdf', exact: true }).waitFor();

    const [asked] = await page.evaluate(() => (window as unknown as { pickerAsked: unknown[] }).pickerAsked) as
      Array<{ types: Array<{ description: string; accept: Record<string, string[]> }>; excludeAcceptAllOption: boolean; multiple: boolean }>;
    expect(asked.types[0]).toEqual({ description: 'PNG and JPEG images', accept: { 'image/png': ['.png'], 'image/jpeg': ['.jpg', '.jpeg'] } });
    const offered = asked.types.flatMap((choice) => Object.keys(choice.accept));
    for (const mime of UPLOAD_MIME_TYPES) expect(offered, mime).toContain(mime);
    expect(asked).toMatchObject({ excludeAcceptAllOption: false, multiple: false }); // All files stays a choice
  });
});

describe('the claim history period: the calendar offers only days the rule allows', () => {
  it('days after today cannot be picked; two clicks in the past set the period', async () => {
    await signedIn();
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByRole('link', { name: 'New Claim History and Insurance Verification Request' }).click();
    await page.getByRole('button', { name: 'Pick dates on a calendar' }).click();
    const calendar = page.getByRole('grid');
    const today = officeToday(DEFAULT_OFFICE_TIME_ZONE);
    await page.getByRole('button', { name: 'Next month' }).click();
    const future = calendar.getByRole('button', { name: dayLabel(`${month}-01`), exact: true });
    expect(await future.getAttribute('aria-disabled')).toBe('true');
    await future.focus(); // focusable, so the arrows keep the focus, but Enter picks nothing
    await page.keyboard.press('Enter');
    expect(await valueOf('dateFrom')).toBe('');
    await page.getByRole('button', { name: 'Previous month' }).click();
    await page.getByRole('button', { name: 'Previous month' }).click();
    const previous = addMonths(monthOf(today), -1);
    await calendar.getByRole('button', { name: dayLabel(`${previous}-03`), exact: true }).click();
    await calendar.getByRole('button', { name: dayLabel(`${previous}-20`), exact: true }).click();
    expect(await valueOf('dateFrom')).toBe(typed(`${previous}-03`));
    expect(await valueOf('dateTo')).toBe(typed(`${previous}-20`));
    await atBothWidths('claim-history-period');
  });
});

describe('the person edit modal and the Supervisor role', () => {
  it('a rental names the employee picked from the directory; the form shows the person read-only', async () => {
    await startRentalWithEmployee();
    expect(await page.locator('input[name="lastName"]').getAttribute('readonly')).not.toBeNull();
    expect(await valueOf('personRole')).toBe('Employee');
  });

  it('Edit Employee opens the modal: a required field is refused, the role becomes Supervisor', async () => {
    await startRentalWithEmployee();
    await page.getByRole('button', { name: 'Edit Employee' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Employee' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Employee ID').getAttribute('readonly')).not.toBeNull(); // from the directory
    await dialog.getByLabel('Person Role').selectOption('Supervisor');
    await dialog.getByLabel('First Name').fill('');
    await dialog.getByLabel('Work Phone').fill('5034940101');
    expect(await dialog.getByLabel('Work Phone').inputValue()).toBe('503-494-0101');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText(MESSAGES.required).waitFor();
    await atBothWidths('person-edit-refused');
    await dialog.getByLabel('First Name').fill('Jordan');
    await dialog.getByLabel('Title').fill('Fleet Supervisor');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await valueOf('personRole')).toBe('Supervisor');
    expect(await valueOf('title')).toBe('Fleet Supervisor');
    expect(await valueOf('workPhone')).toBe('503-494-0101');
    await page.getByRole('button', { name: 'Edit Supervisor' }).waitFor();
    await page.getByRole('button', { name: 'Change Supervisor' }).waitFor();
    const number = await saveAndReadNumber();
    await expect.poll(async () => (await stored(number)).personRole).toBe('Supervisor');
    expect((await stored(number)).title).toBe('Fleet Supervisor');
    await atBothWidths('person-supervisor');
  });

  it('Escape closes the modal without changing the form', async () => {
    await openRentalWithSupervisor();
    await page.getByRole('button', { name: 'Edit Supervisor' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Supervisor' });
    await dialog.getByLabel('Title').fill('Something else');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await valueOf('title')).toBe('Fleet Supervisor');
  });

  it('a person not in the directory: Add New opens the add modal, keeping the chosen role', async () => {
    await openRentalWithSupervisor();
    await page.getByRole('button', { name: 'Change Supervisor' }).click();
    const search = page.getByRole('dialog', { name: 'Find Supervisor' });
    await search.getByLabel('Last Name').fill('Nobody');
    await search.getByLabel('First Name').fill('Here');
    await search.getByRole('button', { name: 'Search' }).click();
    await search.getByText('No individual found matching this criteria.').waitFor();
    await search.getByRole('button', { name: 'Add New' }).click();
    const add = page.getByRole('dialog', { name: 'Add Supervisor' });
    await add.waitFor();
    expect(await add.getByLabel('Last Name').inputValue()).toBe('');
    expect(await add.getByLabel('Person Role').inputValue()).toBe('Supervisor');
    await add.getByLabel('Last Name').fill('Okafor');
    await add.getByLabel('First Name').fill('Ada');
    await atBothWidths('person-add');
    await add.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => valueOf('lastName')).toBe('Okafor');
    expect(await valueOf('employeeId')).toBe('');
    expect(await valueOf('title')).toBe('');
  });
});
