import { Migration } from '@mikro-orm/migrations';

/**
 * `issued_letters`: every certificate and claim-history letter the portal issued, with the verification code
 * printed on it, the SHA-256 of the signed PDF that went out, its status (superseded, revoked) and the facts the
 * public verification page shows. One row per printed letter.
 *
 * Life of a row:
 * - reserved (`issued_at` null): the letter activity takes a code before Chromium prints it (the code is on the
 *   paper), keyed by the effect (`idempotency_key`) so a retried activity prints the same code again. A reserved row
 *   is not issued: the public page treats its code as unknown.
 * - issued: the statement that stores the signed PDF as a document sets `document_id`, `sha256` and `issued_at`, and
 *   in the same statement supersedes the request's current letter of the same kind (`superseded_at`,
 *   `superseded_by_id`).
 * - revoked: an administrator's command on the request's workflow sets `revoked_at`, `revoke_reason`, `revoke_note`
 *   and `revoked_by`.
 *
 * Keys and indexes:
 * - `verification_code` unique (the public page's lookup; stored normalized, 13 symbols).
 * - `sha256` indexed (the drop-a-PDF check looks the file's digest up).
 * - one current letter per request and kind (issued, neither superseded nor revoked): a partial exclusion constraint
 *   checked at commit, whose index is also the "current certificate of a request" lookup; `(request_id, issued_at)`
 *   lists a request's letters.
 * - request_id → requests RESTRICT, like every child of a request that keeps a record (only drafts are deleted, and
 *   a draft issued nothing). document_id → documents SET NULL: an administrator may remove the letter's file, but
 *   the record of what was issued (code, digest, facts, status) stays checkable. revoked_by → users SET NULL.
 */
export class Migration20261128100001_issued_letters extends Migration {

  override name = 'Migration20261128100001_issued_letters';

  override up(): void | Promise<void> {
    this.addSql(`create table "issued_letters" (
      "id" serial primary key,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      "request_id" int not null,
      "document_id" int null,
      "letter_kind" varchar(32) not null,
      "verification_code" varchar(13) not null,
      "sha256" bytea null,
      "idempotency_key" varchar(255) not null,
      "issued_at" timestamptz null,
      "superseded_by_id" int null,
      "superseded_at" timestamptz null,
      "revoked_at" timestamptz null,
      "revoke_reason" varchar(64) null,
      "revoke_note" text null,
      "revoked_by" int null,
      "facts" jsonb not null,
      constraint "issued_letters_letter_kind_check" check ("letter_kind" in ('certificate', 'claimHistoryLetter')),
      constraint "issued_letters_issued_check" check ("issued_at" is null or ("sha256" is not null)),
      constraint "issued_letters_revoked_check" check ("revoked_at" is null or ("revoke_reason" is not null and "issued_at" is not null))
    );`);
    this.addSql(`alter table "issued_letters" add constraint "issued_letters_verification_code_unique" unique ("verification_code");`);
    this.addSql(`alter table "issued_letters" add constraint "issued_letters_idempotency_key_unique" unique ("idempotency_key");`);
    this.addSql(`alter table "issued_letters" add constraint "issued_letters_request_id_foreign" foreign key ("request_id") references "requests" ("id") on update cascade on delete restrict;`);
    this.addSql(`alter table "issued_letters" add constraint "issued_letters_document_id_foreign" foreign key ("document_id") references "documents" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "issued_letters" add constraint "issued_letters_superseded_by_id_foreign" foreign key ("superseded_by_id") references "issued_letters" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "issued_letters" add constraint "issued_letters_revoked_by_foreign" foreign key ("revoked_by") references "users" ("id") on update cascade on delete set null;`);
    this.addSql(`create index "issued_letters_sha256_index" on "issued_letters" ("sha256") where "sha256" is not null;`);
    this.addSql(`create index "issued_letters_request_id_issued_at_index" on "issued_letters" ("request_id", "issued_at");`);
    // An exclusion constraint rather than a unique index: it can be checked at commit (the statement that issues a
    // letter marks the new one issued and the old one superseded in CTEs whose order PostgreSQL does not promise).
    this.addSql(`alter table "issued_letters" add constraint "issued_letters_one_current" exclude using btree ("request_id" with =, "letter_kind" with =)
      where ("issued_at" is not null and "superseded_at" is null and "revoked_at" is null) deferrable initially deferred;`);
    this.addSql(`create index if not exists "issued_letters_document_id_index" on "issued_letters" ("document_id") where "document_id" is not null;`);
    this.addSql(`create index if not exists "issued_letters_superseded_by_id_index" on "issued_letters" ("superseded_by_id") where "superseded_by_id" is not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "issued_letters" cascade;`);
  }
}
