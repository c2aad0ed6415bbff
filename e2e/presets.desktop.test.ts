import { presetJourney } from './presetsJourney';

presetJourney('desktop');
