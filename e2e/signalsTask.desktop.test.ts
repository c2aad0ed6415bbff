import { signalsTaskJourney } from './signalsJourney';

signalsTaskJourney('desktop');
