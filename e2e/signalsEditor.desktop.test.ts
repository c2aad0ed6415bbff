import { signalsEditorJourney } from './signalsJourney';

signalsEditorJourney('desktop');
