/** What a developer sees when a piece the portal needs is missing: a clear message, never a hang. */
import { describe, expect, it } from 'vitest';
import { ChromiumPdfRenderer } from '../../activities/pdf/chromium-pdf-renderer';
import { ensureDatabase } from '../../db/database';

describe('missing dependencies', () => {
  it('PostgreSQL not answering: says how to start it, not a hang', async () => {
    const started = Date.now();
    await expect(ensureDatabase('postgres://postgres@127.0.0.1:1/coi_portal')).rejects.toThrow(/PostgreSQL does not answer at 127\.0\.0\.1:1[\s\S]*pg_ctlcluster/);
    expect(Date.now() - started, 'an answer, not a hang (bounded generously: a busy machine only makes it later)').toBeLessThan(60_000);
  });

  it('Chromium missing: says how to install it', async () => {
    const renderer = new ChromiumPdfRenderer('/nonexistent/chromium');
    await expect(renderer.render('<p>x</p>')).rejects.toThrow('Chromium not found at /nonexistent/chromium: install it with  apt-get install -y chromium');
    await renderer.close();
  });
});
