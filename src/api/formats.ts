/**
 * JSON-schema formats of the API beyond ajv-formats', shared by the server's
 * validator and the dashboard's test network (both check requests against
 * the same OpenAPI document).
 */

/** An IANA time-zone name the runtime knows ("Asia/Shanghai", "UTC"); "Europe/Nowhere" and "../UTC" are not. */
export const isTimeZone = (value: string): boolean => {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
};

export const API_FORMATS = {
  'time-zone': { type: 'string', validate: isTimeZone },
} as const;

/** Registers the formats on an Ajv instance. */
export const addApiFormats = (ajv: { addFormat(name: string, format: { type: 'string'; validate: (value: string) => boolean }): unknown }) => {
  for (const [name, format] of Object.entries(API_FORMATS)) ajv.addFormat(name, format);
};
