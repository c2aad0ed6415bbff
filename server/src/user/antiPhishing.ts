import { ErrorCode } from '../../../src/api/errors';
import type { Db } from '../db/database';
import { fail } from '../http/errors';
import { ANTI_PHISHING_MAX_LENGTH, phraseProblem } from '../mail/antiPhishing';
import { recordEvents } from '../notify/events';
import { refuseDemoUser } from '../shared/demoGuard';

/** The user's anti-phishing phrase (mail/antiPhishing.ts puts it in every mail). */
export const readPhrase = async (db: Db, userId: string): Promise<{ phrase: string | null }> => ({
  phrase: (await db.selectFrom('users').select('anti_phishing_phrase').where('id', '=', userId).executeTakeFirstOrThrow()).anti_phishing_phrase,
});

/**
 * Sets it ('' removes it). The shared demo account has none: a visitor's
 * phrase would be shown to the others and make real mails look forged (11005).
 */
export const writePhrase = async (db: Db, userId: string, raw: string): Promise<{ phrase: string | null }> => {
  const problem = phraseProblem(raw);
  if (problem === 'length') fail(ErrorCode.PARAM_LENGTH, `the phrase is at most ${ANTI_PHISHING_MAX_LENGTH} characters`, { field: 'phrase', max: ANTI_PHISHING_MAX_LENGTH });
  if (problem === 'markup') fail(ErrorCode.PARAM_FORMAT, 'the phrase may not hold < > & or quotes', { field: 'phrase' });
  const phrase = raw.trim() || null;
  await db.transaction().execute(async (trx) => {
    await refuseDemoUser(trx, userId, 'set an anti-phishing phrase');
    const before = await trx.selectFrom('users').select('anti_phishing_phrase').where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();
    if (before.anti_phishing_phrase === phrase) return;
    await trx.updateTable('users').set({ anti_phishing_phrase: phrase }).where('id', '=', userId).execute();
    await recordEvents(trx, [{ userId, kind: 'user.security_changed', taskId: null, payload: { change: phrase ? 'anti_phishing_phrase_set' : 'anti_phishing_phrase_removed' } }]);
  });
  return { phrase };
};
