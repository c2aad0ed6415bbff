import { signalsJourney } from './signalsJourney';

signalsJourney('desktop');
