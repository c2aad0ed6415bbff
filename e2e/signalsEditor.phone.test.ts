import { signalsEditorJourney } from './signalsJourney';

signalsEditorJourney('phone');
