import { describe } from 'vitest';
import { describeFullReplay } from './engineReplayFull';

describe.runIf(process.env.TEST_DATABASE_URL)('on PostgreSQL', () => {
  describeFullReplay('postgres');
});
