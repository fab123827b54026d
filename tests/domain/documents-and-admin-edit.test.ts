/** Document and edit rules in domain/: who removes which document, when documents and fields change, the audit texts. */
import { describe, expect, it } from 'vitest';
import {
  adminMayEditFields, ALL_STATUSES, changedFieldLabels, documentsEditable, fieldEditAuditText, letterEmailTemplateFor,
  mayGenerateLetter, mayRemoveDocument, requestKindOf, STATUS,
} from '../../domain';

describe('documents', () => {
  it('a requester removes only what a requester added; an administrator removes anything', () => {
    expect(mayRemoveDocument(false, 'requester')).toBe(true);
    expect(mayRemoveDocument(false, 'administrator')).toBe(false);
    expect(mayRemoveDocument(false, 'system')).toBe(false);
    expect(mayRemoveDocument(true, 'system')).toBe(true);
  });

  it('documents change until the request is approved or in a terminal status; letters exist for approved requests only', () => {
    const editable = ALL_STATUSES.filter(documentsEditable);
    expect(editable).not.toContain(STATUS.approved);
    expect(editable).not.toContain(STATUS.approvedWithLetterOfIntent);
    expect(editable).not.toContain(STATUS.denied);
    expect(editable).not.toContain(STATUS.closed);
    expect(editable).toContain(STATUS.pendingAdditionalInformation);
    expect(ALL_STATUSES.filter(mayGenerateLetter)).toEqual([STATUS.approved, STATUS.approvedWithLetterOfIntent]);
    expect(letterEmailTemplateFor('credentialing', STATUS.approved)).toBe('Credentialing Request Approved');
    expect(letterEmailTemplateFor('certificate', STATUS.approvedWithLetterOfIntent)).toBe('Certificate Request Approved with Letter of Intent');
  });
});

describe('admin in-place edit', () => {
  it('is offered on submitted requests until they are completed or closed', () => {
    expect(adminMayEditFields(STATUS.submitted)).toBe(true);
    expect(adminMayEditFields(STATUS.pendingEmployment)).toBe(true);
    for (const status of [STATUS.draft, STATUS.approved, STATUS.approvedWithLetterOfIntent, STATUS.denied, STATUS.closed]) {
      expect(adminMayEditFields(status)).toBe(false);
    }
  });

  it('names the changed fields by their labels, in form order; empty and missing values are the same', () => {
    const kind = requestKindOf('credentialing');
    const before = { lastName: 'Nguyen', facilityName: 'Mercy', altName: '' };
    const after = { lastName: 'Nguyen-Tran', facilityName: 'Mercy', reason: 'Future employment' };
    expect(changedFieldLabels(kind, before, after)).toEqual(['Last Name', 'Reason for Request']);
    expect(changedFieldLabels(kind, before, { ...before })).toEqual([]);
    expect(fieldEditAuditText(['Last Name', 'Reason'])).toBe('Edited "Last Name", "Reason"');
  });
});
