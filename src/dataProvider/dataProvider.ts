import type { DataProvider, GetListParams, Identifier } from 'ra-core';
import { createConsoleProvider, isConsoleResource } from './consoleProvider';
import { Endpoint } from '../api/endpoints';
import { SECOND_FACTOR_HEADER } from '../api/security';
import type { Page } from '../api/types';
import { createApi } from './api';
import type { HttpClient, QueryValue } from './httpClient';

/**
 * react-admin's CRUD verbs mapped onto the user API's style (design section 4):
 *
 *   getList / getMany / getManyReference  GET  /api/<resource>/list?page&pageSize&sort&order&<filters>  -> {list, total}
 *                                         (orders: GET /api/trade/order-history)
 *   getOne                                GET  /api/<resource>/detail/<id>
 *   create                                POST /api/<resource>/add
 *   update                                POST /api/<resource>/edit   (trade: /api/trade/update)
 *   delete                                POST /api/<resource>/delete {id}
 *
 * The operator console's resources (`admin/<resource>`) speak
 * ra-data-simple-rest's dialect instead (consoleProvider.ts). Both go through
 * our own HTTP client (signing, envelope, refresh).
 */
const UPDATE_VERB: Record<string, string> = { trade: 'update' };
/** Lists at another path than /api/<resource>/list: a task's orders (resource `orders`). */
const LIST_PATH: Record<string, string> = { orders: Endpoint.tradeOrderHistory };

const path = (resource: string, verb: string) => `/api/${resource}/${verb}`;

type Query = Record<string, QueryValue>;

const listQuery = (params: Partial<GetListParams>, extra: Query = {}): Query => ({
  page: params.pagination?.page,
  pageSize: params.pagination?.perPage,
  sort: params.sort?.field,
  order: params.sort?.order,
  ...(params.filter as Query),
  ...extra,
});

const stepUpHeaders = (meta: unknown): Record<string, string> | undefined => {
  const code = (meta as { secondFactor?: unknown } | undefined)?.secondFactor;
  return typeof code === 'string' && code ? { [SECOND_FACTOR_HEADER]: code } : undefined;
};

export const createDataProvider = (http: HttpClient) => {
  const getList = async (resource: string, query: Query, signal?: AbortSignal) => {
    const page = await http.request<Page<any>>('GET', LIST_PATH[resource] ?? path(resource, 'list'), { query, signal });
    return { data: page.list, total: page.total };
  };

  // Records are whatever the resource's list/detail calls answer; react-admin types them per call site.
  /* eslint-disable @typescript-eslint/no-explicit-any */
  const crud: DataProvider = {
    getList: (resource, params) => getList(resource, listQuery(params), params.signal),
    getOne: async (resource, params) => ({
      data: await http.request<any>('GET', `${path(resource, 'detail')}/${encodeURIComponent(String(params.id))}`, {
        signal: params.signal,
      }),
    }),
    getMany: async (resource, params) => {
      const { data } = await getList(resource, { ids: params.ids.join(',') }, params.signal);
      return { data };
    },
    getManyReference: (resource, params) =>
      getList(resource, listQuery(params, { [params.target]: String(params.id) }), params.signal),
    // `meta.secondFactor`: the step-up header of a create or update that needs one (a real exchange's keys).
    create: async (resource, params) => ({
      data: await http.request<any>('POST', path(resource, 'add'), { body: params.data, headers: stepUpHeaders(params.meta) }),
    }),
    update: async (resource, params) => ({
      data: await http.request<any>('POST', path(resource, UPDATE_VERB[resource] ?? 'edit'), {
        body: { ...params.data, id: params.id },
        headers: stepUpHeaders(params.meta),
      }),
    }),
    updateMany: async (resource, params) => {
      for (const id of params.ids) {
        await http.request('POST', path(resource, UPDATE_VERB[resource] ?? 'edit'), { body: { ...params.data, id } });
      }
      return { data: params.ids };
    },
    delete: async (resource, params) => {
      await http.request('POST', path(resource, 'delete'), { body: { id: params.id } });
      return { data: (params.previousData ?? { id: params.id }) as never };
    },
    deleteMany: async (resource, params) => {
      const deleted: Identifier[] = [];
      for (const id of params.ids) {
        await http.request('POST', path(resource, 'delete'), { body: { id } });
        deleted.push(id);
      }
      return { data: deleted };
    },
  };

  const console = createConsoleProvider(http);
  const VERBS = ['getList', 'getOne', 'getMany', 'getManyReference', 'create', 'update', 'updateMany', 'delete', 'deleteMany'] as const;
  const routed = Object.fromEntries(
    VERBS.map((verb) => [verb, (resource: string, params: unknown) => ((isConsoleResource(resource) ? console : crud)[verb] as (r: string, p: unknown) => unknown)(resource, params)]),
  ) as unknown as DataProvider;

  return { ...routed, ...createApi(http) };
};

export type AppDataProvider = ReturnType<typeof createDataProvider>;
