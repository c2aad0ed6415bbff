import { sql, type Kysely } from 'kysely';

/**
 * E-mail change (issue 26): a code mailed to the new address has a purpose of
 * its own, `change_email`, beside registration and password reset.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await sql`alter table verification_codes drop constraint if exists verification_codes_purpose_check`.execute(db);
  await sql`alter table verification_codes add constraint verification_codes_purpose_check check (purpose in ('register', 'reset', 'change_email'))`.execute(db);
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await sql`delete from verification_codes where purpose = 'change_email'`.execute(db);
  await sql`alter table verification_codes drop constraint if exists verification_codes_purpose_check`.execute(db);
  await sql`alter table verification_codes add constraint verification_codes_purpose_check check (purpose in ('register', 'reset'))`.execute(db);
};
