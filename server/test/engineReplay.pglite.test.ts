import { describeFullReplay } from './engineReplayFull';

describeFullReplay('pglite');
