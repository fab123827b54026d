import { Link } from 'react-router-dom';
import { formatOfficeDate, formatUsd } from '../../../../domain';
import { officeDate } from '../../lib/format';
import { paths } from '../../lib/paths';
import type { Verification } from './api/verification-api';

/** What the holder checked: the code they typed or scanned, or a file they dropped. */
export type CheckedItem = { code: string } | { fileName: string };

const STATUS_LABELS: Record<Verification['status'], string> = {
  Valid: 'Valid', Superseded: 'Superseded', Revoked: 'Revoked', NotIssued: 'Not issued by us',
};

/** The one sentence a screen reader announces when an answer arrives. */
export function statusSentence(answer: Verification, checked: CheckedItem): string {
  const what = answer.kindLabel ?? 'certificate';
  switch (answer.status) {
    case 'Valid': return `Valid: this ${what} was issued by us and is in force.`;
    case 'Superseded': return answer.superseded?.newCode
      ? `Superseded: this ${what} was replaced by a newer one on ${officeDate(answer.superseded.on)}.`
      : `Superseded: this ${what} was superseded on ${officeDate(answer.superseded?.on)}.`;
    case 'Revoked': return `Revoked: this ${what} was revoked on ${officeDate(answer.revoked?.on)}${answer.revoked ? ` (${answer.revoked.reasonCategory})` : ''}. It is no longer valid.`;
    default: return 'code' in checked
      ? `Not issued by us: we have no certificate or letter with the code ${checked.code}.`
      : 'Not issued by us: this file is not byte for byte a certificate or letter we issued.';
  }
}

/** The answer of a check: the status first, then what the paper should say, to compare with the copy in hand. */
export function VerificationResult({ answer, checked }: { answer: Verification; checked: CheckedItem }) {
  const tz = answer.certificate?.timeZone ?? answer.claimHistoryLetter?.timeZone;
  const day = (value: string) => (tz ? formatOfficeDate(value, tz) : officeDate(value));
  return (
    <section className={`verify-result verify-result--${answer.status.toLowerCase()}`} aria-labelledby="verify-result-heading">
      <h2 id="verify-result-heading">Status: {STATUS_LABELS[answer.status]}</h2>
      <p className="verify-result__sentence">{statusSentence(answer, checked)}</p>
      {answer.status === 'NotIssued' && (
        <p>
          {'code' in checked
            ? 'Please check that you typed the code as printed under the QR code. A certificate whose code we do not know was not issued by this office.'
            : 'A copy that was changed after we issued it, even by one character, no longer matches. Check the code printed on it instead, or ask the person who gave it to you for the original.'}
        </p>
      )}
      {answer.superseded?.newCode && (
        <p>
          A newer {answer.kindLabel ?? 'certificate'} was issued on {officeDate(answer.superseded.on)}:{' '}
          <Link to={paths.verify.getHref(answer.superseded.newCode)}>check the status of {answer.superseded.newCode}</Link>.
        </p>
      )}
      {/* The one that replaced it names another holder: whoever holds this one learns only when. */}
      {answer.superseded && !answer.superseded.newCode && <p>Superseded on {officeDate(answer.superseded.on)}.</p>}
      {answer.revoked && (
        <p>Revoked on {officeDate(answer.revoked.on)}. Reason: {answer.revoked.reasonCategory}.</p>
      )}
      {answer.status !== 'NotIssued' && (
        <>
          <h3>What the {answer.kindLabel ?? 'letter'} states</h3>
          <dl className="verify-facts">
            <dt>Kind</dt><dd>{answer.certificate?.subtypeLabel ? `${answer.kindLabel} (${answer.certificate.subtypeLabel})` : answer.kindLabel}</dd>
            {answer.code && (<><dt>Verification code</dt><dd className="verify-code">{answer.code}</dd></>)}
            {answer.certificate && (
              <>
                <dt>Certificate holder</dt><dd>{answer.certificate.certificateHolder}</dd>
                <dt>Insured activity</dt><dd>{answer.certificate.insuredActivity}</dd>
                <dt>Coverage period</dt><dd>{day(answer.certificate.coveragePeriod.from)} – {day(answer.certificate.coveragePeriod.to)}</dd>
                <dt>Type of coverage</dt><dd>{answer.certificate.coverageLine}</dd>
                <dt>Date issued</dt><dd>{day(answer.certificate.dateIssued)}</dd>
              </>
            )}
            {answer.claimHistoryLetter && (
              <>
                <dt>Clinician</dt><dd>{answer.claimHistoryLetter.clinicianName}</dd>
                <dt>Letter date</dt><dd>{day(answer.claimHistoryLetter.letterDate)}</dd>
              </>
            )}
          </dl>
          {answer.certificate && (
            <div className="table-scroll">
              <table className="verify-policies">
                <caption>Policies and limits</caption>
                <thead>
                  <tr><th scope="col">Policy number</th><th scope="col">Effective</th><th scope="col">Expiration</th>
                    <th scope="col" className="num">Each occurrence / claim</th><th scope="col" className="num">Annual aggregate</th></tr>
                </thead>
                <tbody>
                  {answer.certificate.policies.length === 0 && (
                    <tr><td colSpan={5}>No policy year on record covers the coverage period.</td></tr>
                  )}
                  {answer.certificate.policies.map((policy) => (
                    <tr key={`${policy.policyNumber}-${policy.effective}`}>
                      <td>{policy.policyNumber}</td><td>{day(policy.effective)}</td><td>{day(policy.expiration)}</td>
                      <td className="num">{formatUsd(policy.eachClaim)}</td><td className="num">{formatUsd(policy.annualAggregate)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}
