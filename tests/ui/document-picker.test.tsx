/**
 * The supporting-document picker offers every type the upload keeps, the spec's default first (spec 2 §9.1 "File
 * picker default: png and jpeg"), and says what it takes. tests/e2e/pickers.e2e.test.ts holds the same picker in
 * Chromium against the server's own list.
 */
import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DOCUMENT_PICKER_HINT, DOCUMENT_TYPES } from '../../domain';
import { createFakeApi } from './support/fake-api';
import { renderApp, requester } from './support/render-app';

const fake = vi.hoisted(() => ({ current: null as null | ReturnType<typeof import('./support/fake-api')['createFakeApi']> }));
vi.mock('../../ui/src/lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  api: new Proxy({}, { get: (_, method: string) => (fake.current!.api as Record<string, unknown>)[method] }),
}));

beforeEach(() => { fake.current = createFakeApi(); });

describe('the document picker', () => {
  it('offers PNG and JPEG first, then every other document the upload keeps, and says which', async () => {
    await renderApp(fake.current!, '/requests/credentialing/new', requester);
    const picker = await screen.findByLabelText('File');
    expect(picker).toHaveAttribute('type', 'file');
    const accept = picker.getAttribute('accept')!.split(',');
    expect(accept.slice(0, 5)).toEqual(['image/png', '.png', 'image/jpeg', '.jpg', '.jpeg']);
    for (const type of DOCUMENT_TYPES) expect(accept).toEqual(expect.arrayContaining([type.mimeType, ...type.pickerExtensions]));
    expect(accept).toContain('application/pdf');
    expect(picker).toHaveAccessibleDescription(DOCUMENT_PICKER_HINT);
  });
});
