import { presetJourney } from './presetsJourney';

presetJourney('phone');
