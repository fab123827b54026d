/**
 * The supporting-document picker starts on the spec's default file types (spec 2 §9.1 "File picker default: png and
 * jpeg"), and says how to reach the other documents the upload accepts.
 */
import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeApi } from './support/fake-api';
import { renderApp, requester } from './support/render-app';

const fake = vi.hoisted(() => ({ current: null as null | ReturnType<typeof import('./support/fake-api')['createFakeApi']> }));
vi.mock('../../ui/src/lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  api: new Proxy({}, { get: (_, method: string) => (fake.current!.api as Record<string, unknown>)[method] }),
}));

beforeEach(() => { fake.current = createFakeApi(); });

describe('the document picker', () => {
  it('starts on PNG and JPEG images and says how to attach a PDF', async () => {
    await renderApp(fake.current!, '/requests/credentialing/new', requester);
    const picker = await screen.findByLabelText('File');
    expect(picker).toHaveAttribute('type', 'file');
    expect(picker.getAttribute('accept')?.split(',')).toEqual(['image/png', 'image/jpeg']);
    expect(picker).toHaveAccessibleDescription('The picker starts on PNG and JPEG images; choose All files to attach a PDF, Word or Excel document.');
  });
});
