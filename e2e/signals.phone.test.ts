import { signalsJourney } from './signalsJourney';

signalsJourney('phone');
