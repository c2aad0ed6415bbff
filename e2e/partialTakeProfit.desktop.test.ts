import { partialTakeProfitJourney } from './partialTakeProfitJourney';

partialTakeProfitJourney('desktop');
