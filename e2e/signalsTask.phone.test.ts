import { signalsTaskJourney } from './signalsJourney';

signalsTaskJourney('phone');
