import type { EngineDomains } from './engine/store/journal';
import { chargeFuelBatch } from './member/fuel';
import { recordEngineEvents } from './notify/events';
import { settingsOf } from './strategy/service';

/** What the trading engine takes from the other domains, given to it where it is built (the engine imports no domain). */
export const engineDomains: EngineDomains = {
  chargeFuel: chargeFuelBatch,
  strategyOf: settingsOf,
  recordEvents: recordEngineEvents,
};
