import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import type { Db } from '../db/database';
import { openConfigured } from '../startup';
import { recordAudit } from '../shared/audit';

/**
 * `npm run operator -- <email>` grants the operator role to an existing
 * account; `npm run operator -- --revoke <email>` takes it back. It opens the
 * configured database (DATABASE_URL, or the embedded one under DATA_DIR) like
 * `npm start` does. The change takes effect on the user's next request: the
 * server reads the role from the database on every call.
 */

export const USAGE = 'usage: npm run operator -- [--revoke] <email>';

export interface CommandOutput {
  log: (line: string) => void;
  error: (line: string) => void;
}

/** What the arguments ask for, read before any database is opened: help and wrong usage need none. */
export type OperatorArgs = { kind: 'help' } | { kind: 'usage'; problem: string } | { kind: 'change'; email: string; revoke: boolean };

export const parseOperatorArgs = (args: readonly string[]): OperatorArgs => {
  const flags = args.filter((arg) => arg.startsWith('-'));
  const words = args.filter((arg) => !arg.startsWith('-'));
  if (flags.includes('--help') || flags.includes('-h')) return { kind: 'help' };
  const unknown = flags.filter((flag) => flag !== '--revoke');
  if (unknown.length > 0) return { kind: 'usage', problem: `unknown option ${unknown[0]}` };
  if (words.length !== 1) return { kind: 'usage', problem: 'give exactly one email address' };
  return { kind: 'change', email: words[0]!.trim().toLowerCase(), revoke: flags.includes('--revoke') };
};

/** Answers help and wrong usage (their exit code), or null when the command needs the database. */
const answerWithoutDatabase = (parsed: OperatorArgs, out: CommandOutput): number | null => {
  if (parsed.kind === 'help') {
    out.log(USAGE);
    return 0;
  }
  if (parsed.kind === 'usage') {
    out.error(parsed.problem);
    out.error(USAGE);
    return 2;
  }
  return null;
};

/** Runs the command against an open, migrated database; answers the exit code. */
export const runOperatorCommand = async (db: Db, args: readonly string[], out: CommandOutput): Promise<number> => {
  const parsed = parseOperatorArgs(args);
  const answered = answerWithoutDatabase(parsed, out);
  if (answered !== null || parsed.kind !== 'change') return answered ?? 2;
  const { email, revoke } = parsed;
  const role = revoke ? 'user' : 'operator';

  return db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('users').select(['id', 'email', 'role', 'disabled']).where(sql`lower(email)`, '=', email).forUpdate().executeTakeFirst();
    if (!user) {
      out.error(`No account with the email ${email}. The person signs up first (the dashboard's register page), then run this again.`);
      return 1;
    }
    if (user.role === role) {
      out.log(revoke ? `${user.email} is not an operator: nothing to do.` : `${user.email} is already an operator: nothing to do.`);
      return 0;
    }
    await trx.updateTable('users').set({ role }).where('id', '=', user.id).execute();
    // The audit log names an operator: here the account itself, marked as done from the command line.
    await recordAudit(trx, {
      operatorId: user.id,
      action: revoke ? 'operator.revoke' : 'operator.grant',
      targetType: 'user',
      targetId: user.id,
      data: { via: 'command line' },
    });
    if (revoke) {
      out.log(`${user.email} is no longer an operator; the operator console is closed to them from their next request.`);
    } else {
      out.log(`${user.email} is now an operator: the operator console appears in their dashboard menu the next time they open the dashboard.`);
      if (user.disabled) out.log(`Note: the account ${user.email} is disabled and cannot log in until it is enabled again.`);
    }
    return 0;
  });
};

const main = async () => {
  const out: CommandOutput = { log: console.log, error: console.error };
  const answered = answerWithoutDatabase(parseOperatorArgs(process.argv.slice(2)), out);
  if (answered !== null) process.exit(answered);
  const { db, close } = await openConfigured({
    busy: (pid, dataDir) =>
      `The server (pid ${pid}) has the embedded database in ${dataDir} open, and it is one process's at a time: stop the server (Ctrl-C), run this command, then start the server again.`,
    busyExitCode: 3,
  });
  let code = 1;
  try {
    code = await runOperatorCommand(db, process.argv.slice(2), out);
  } finally {
    await close();
  }
  // Exit explicitly: closing the embedded database resets process.exitCode.
  process.exit(code);
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
