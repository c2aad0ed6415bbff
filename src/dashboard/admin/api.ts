/**
 * The operator console's custom calls: the settings and the engine's health. Its resources go
 * through react-admin's controllers (ra-data-simple-rest's dialect).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { ServiceSettings } from '../../api/admin';
import type { AppDataProvider } from '../../dataProvider/dataProvider';

export const adminKeys = { settings: ['admin', 'settings'] as const, engine: ['admin', 'engine'] as const };

/** The configured rules in force. */
export const useServiceSettings = () => {
  const api = useDataProvider<AppDataProvider>();
  return useQuery({ queryKey: adminKeys.settings, queryFn: ({ signal }) => api.adminSettings(signal) });
};

/** Saves a partial change; the page then shows the settings the server answers. */
export const useEditSettings = () => {
  const api = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: Partial<ServiceSettings>) => api.adminSettingsEdit(change),
    onSuccess: (saved) => queryClient.setQueryData(adminKeys.settings, saved),
  });
};

/** The trading engine's health, asked again every `intervalMs`. */
export const useEngineStatus = (intervalMs: number) => {
  const api = useDataProvider<AppDataProvider>();
  return useQuery({ queryKey: adminKeys.engine, queryFn: ({ signal }) => api.engineStatus(signal), refetchInterval: intervalMs });
};
