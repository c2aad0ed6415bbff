import { CustomRoutes, Resource } from 'react-admin';
import { Route } from 'react-router-dom';
import { ARTICLES, ArticleCreate, ArticleEdit, ArticleList } from './articles';
import { AUDIT, AuditList } from './audit';
import { DELIVERIES, DeliveryList } from './deliveries';
import { ENGINE_PATH, EnginePage } from './engine';
import { LEVELS, LevelCreate, LevelEdit, LevelList } from './levels';
import { DEPOSITS, DepositList, DepositShow, WITHDRAWALS, WithdrawalList, WithdrawalShow } from './money';
import { SETTINGS_PATH, SettingsPage } from './settings';
import { USERS, UserEdit, UserList } from './users';

/**
 * The operator console: react-admin resources under /admin/<name> (their calls go to
 * /api/admin/<name> in ra-data-simple-rest's dialect) and the settings page. Loaded on demand for
 * operators only (see loadConsole.ts); the server refuses every call to anyone else (11005).
 */
export const consoleElements = [
  <Resource key={USERS} name={USERS} options={{ label: 'admin.users.title' }} list={UserList} edit={UserEdit} />,
  <Resource key={DEPOSITS} name={DEPOSITS} options={{ label: 'admin.deposits.title' }} list={DepositList} show={DepositShow} />,
  <Resource key={WITHDRAWALS} name={WITHDRAWALS} options={{ label: 'admin.withdrawals.title' }} list={WithdrawalList} show={WithdrawalShow} />,
  <Resource key={ARTICLES} name={ARTICLES} options={{ label: 'admin.articles.title' }} list={ArticleList} create={ArticleCreate} edit={ArticleEdit} />,
  <Resource key={LEVELS} name={LEVELS} options={{ label: 'admin.levels.title' }} list={LevelList} edit={LevelEdit} create={LevelCreate} />,
  <Resource key={AUDIT} name={AUDIT} options={{ label: 'admin.audit.title' }} list={AuditList} />,
  <Resource key={DELIVERIES} name={DELIVERIES} options={{ label: 'admin.deliveries.title' }} list={DeliveryList} />,
  <CustomRoutes key="settings">
    <Route path={SETTINGS_PATH} element={<SettingsPage />} />
    <Route path={ENGINE_PATH} element={<EnginePage />} />
  </CustomRoutes>,
];
