import { onDatabase } from './harness';
import { describeRandomPaths } from './engineReplayProperty';

onDatabase('postgres', describeRandomPaths);
