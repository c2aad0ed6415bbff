/** The schemas of the notification calls: validation, the OpenAPI document and the handlers' types. */
import type { Static } from 'typebox';
import { NOTIFICATION_CHANNELS, NOTIFICATION_KINDS, NOTIFICATION_TIMINGS, type Notification, type NotificationPreferences, type NotificationPreferencesChange, type UnreadCount } from '../../../src/api/notify';
import type { Page } from '../../../src/api/types';
import { Answer, PageOf } from '../http/answers';
import { Body, Query, SameShape, StringEnum, Type, pagingProperties, type Same } from '../http/schemas';

const listQuery = Query({
  ...pagingProperties(),
  unread: Type.Optional(Type.Boolean()),
  kind: Type.Optional(StringEnum(NOTIFICATION_KINDS)),
  // react-admin sends these; the inbox is always newest first.
  sort: Type.Optional(Type.String({ maxLength: 40 })),
  order: Type.Optional(Type.String({ maxLength: 4 })),
});
const readBody = Body({
  ids: Type.Optional(Type.Array(Type.String({ pattern: '^[1-9][0-9]{0,18}$' }), { minItems: 1, maxItems: 100 })),
  all: Type.Optional(Type.Boolean()),
});
const preferenceItem = Type.Object({ kind: StringEnum(NOTIFICATION_KINDS), channel: StringEnum(NOTIFICATION_CHANNELS), enabled: Type.Boolean() });
const timingItem = Type.Object({ kind: StringEnum(NOTIFICATION_KINDS), timing: StringEnum(NOTIFICATION_TIMINGS) });
const preferencesBody = Type.Object(
  { list: Type.Optional(Type.Array(preferenceItem, { minItems: 1, maxItems: 100 })), timing: Type.Optional(Type.Array(timingItem, { minItems: 1, maxItems: 50 })) },
  { additionalProperties: false, minProperties: 1 },
);

export type ListQuery = Static<typeof listQuery>;
export type ReadBody = Static<typeof readBody>;
export type PreferencesBody = Static<typeof preferencesBody>;

const notification = Type.Object({
  id: Type.String(),
  kind: StringEnum(NOTIFICATION_KINDS),
  taskId: Type.Union([Type.String(), Type.Null()]),
  payload: Type.Record(Type.String(), Type.Unknown()),
  createdAt: Type.String(),
  read: Type.Boolean(),
});
const page = PageOf(notification);
const unread = Type.Object({ count: Type.Integer({ minimum: 0 }) });
const preferences = Type.Object({ channels: Type.Array(StringEnum(NOTIFICATION_CHANNELS)), list: Type.Array(preferenceItem), timing: Type.Array(timingItem) });

SameShape<Same<Static<typeof page>, Page<Notification>>>();
SameShape<Same<Static<typeof unread>, UnreadCount>>();
SameShape<Same<Static<typeof preferences>, NotificationPreferences>>();
SameShape<Same<Static<typeof preferencesBody>, NotificationPreferencesChange>>();

export const schemas = {
  list: { summary: "The caller's notifications, newest first (filters: unread, kind)", querystring: listQuery, response: { 200: Answer(page) } },
  unreadCount: { summary: "How many of the caller's notifications are unread", response: { 200: Answer(unread) } },
  stream: {
    summary:
      "Server-Sent Events while a page is open: `unread` ({count}) at once and whenever the caller's unread count changes; a comment line every 25 s; the stream ends when the access token would expire (the page opens a new one)",
    response: { 200: { description: 'text/event-stream', content: { 'text/event-stream': { schema: { type: 'string' } } } } },
  },
  read: { summary: 'Marks the given notifications read, or all of them (`all: true`)', body: readBody, response: { 200: Answer(unread) } },
  preferences: { summary: 'Which kinds of notification reach the caller on which channel', response: { 200: Answer(preferences) } },
  setPreferences: {
    summary:
      'Changes the caller’s notification preferences (only the rows given): channels per kind (`list`), and per kind at once or in the hourly digest (`timing`; not for security kinds, 10008)',     body: preferencesBody,
    response: { 200: Answer(preferences) },
  },
};
