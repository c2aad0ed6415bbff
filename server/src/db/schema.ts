import type { ColumnType, Generated } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface UsersTable {
  id: Generated<string>;
  email: string;
  nickname: string;
  password_hash: string;
  invite_code: string;
  inviter_id: string | null;
  level: Generated<number>;
  activated: Generated<boolean>;
  role: Generated<'user' | 'operator'>;
  avatar: string | null;
  disabled: Generated<boolean>;
  locale: Generated<string>;
  created_at: CreatedAt;
  password_changed_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface VerificationCodesTable {
  id: Generated<string>;
  email: string;
  purpose: 'register' | 'reset';
  code_hash: string;
  attempts: Generated<number>;
  expires_at: Timestamp;
  consumed_at: NullableTimestamp;
  created_at: CreatedAt;
}

/** One row per refresh token; a family is one login session. */
export interface RefreshTokensTable {
  id: Generated<string>;
  family_id: string;
  user_id: string;
  token_hash: string;
  parent_id: string | null;
  expires_at: Timestamp;
  rotated_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  created_at: CreatedAt;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  user_agent: string | null;
  ip: string | null;
  created_at: CreatedAt;
  last_seen_at: Timestamp;
  revoked_at: NullableTimestamp;
}

export interface RequestNoncesTable {
  uuid: string;
  expires_at: Timestamp;
}

export interface ThrottleEventsTable {
  id: Generated<string>;
  key: string;
  created_at: CreatedAt;
}

export interface Database {
  users: UsersTable;
  verification_codes: VerificationCodesTable;
  refresh_tokens: RefreshTokensTable;
  sessions: SessionsTable;
  request_nonces: RequestNoncesTable;
  throttle_events: ThrottleEventsTable;
}
