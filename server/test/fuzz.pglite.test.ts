import { onDatabase } from './harness';
import { describeHostileInput } from './fuzz';

onDatabase('pglite', describeHostileInput);
