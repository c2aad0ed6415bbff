/** The guest pages' calls (verification codes, password reset) go through the data provider's typed calls. */
import { useDataProvider } from 'react-admin';
import type { AppDataProvider } from '../../dataProvider/dataProvider';

export const useApi = () => useDataProvider<AppDataProvider>();
