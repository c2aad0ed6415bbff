import { partialTakeProfitJourney } from './partialTakeProfitJourney';

partialTakeProfitJourney('phone');
