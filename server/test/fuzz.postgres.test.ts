import { onDatabase } from './harness';
import { describeHostileInput } from './fuzz';

onDatabase('postgres', describeHostileInput);
