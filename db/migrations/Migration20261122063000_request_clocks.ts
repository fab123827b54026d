import { Migration } from '@mikro-orm/migrations';

/** Additional Information Needed as first seeded (db/seed-data.ts before the request clocks), written out: migrations stay frozen. */
const SEEDED_BODY = 'Dear {{requesterName}},\n\nWe need more information before we can complete your request. Please open it, read the discussion and resubmit.\n\nRequest number: {{requestNumber}}\nClinician: {{clinicianName}}\nStatus: {{status}}\nView the request: {{requestUrl}}\n\n\nRisk Management\n{{productName}} Risk Management Office\n';
const BLOCK = '{{#if additionalInformation}}{{additionalInformation}}\n\n{{/if}}';

/**
 * Request clocks: the signed release date an administrator records when verifying a credentialing
 * request, and when it was recorded (the expiry timer starts from it). Additional Information Needed learns
 * `{{additionalInformation}}` (what the portal asks for by itself: a new signed release) where its body is still the
 * seeded one; a body the administrators edited is left alone. The clocks' own templates are inserted by the seed
 * (db/seed.ts inserts the templates that are missing).
 */
export class Migration20261122063000_request_clocks extends Migration {

  override name = 'Migration20261122063000_request_clocks';

  override async up(): Promise<void> {
    await this.execute(`alter table "requests" add column "signed_release_date" date null, add column "signed_release_recorded_at" timestamptz null;`);
    await this.execute(
      `update "email_templates" set "body" = ? where "title" = 'Additional Information Needed' and "body" = ?;`,
      [SEEDED_BODY.replace('resubmit.\n\n', `resubmit.\n\n${BLOCK}`), SEEDED_BODY],
    );
  }

  override async down(): Promise<void> {
    await this.execute(`alter table "requests" drop column "signed_release_date", drop column "signed_release_recorded_at";`);
  }
}
