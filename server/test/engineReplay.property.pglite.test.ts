import { onDatabase } from './harness';
import { describeRandomPaths } from './engineReplayProperty';

onDatabase('pglite', describeRandomPaths);
