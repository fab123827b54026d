import { UI_TEXT } from '../../../lib/ui-text';

/** `/requests/certificate/*`: the certificate forms are not built yet; say so instead of showing a fake form. */
export function CertificateRequestPage() {
  return (
    <section className="page page--narrow">
      <h1>Certificate of Insurance Request</h1>
      <p>{UI_TEXT.certificateLaterRelease}</p>
    </section>
  );
}
